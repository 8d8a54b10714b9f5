/** A marketplace sample's cover and player: the shared playable cover with the marketplace's names and test ids. */
import { useTranslation } from 'react-i18next';
import type { SampleDto } from '@/api/market';
import { PlayableCover, PlayerModal } from '@/components/media/PlayableCover';

export { CoverBox } from '@/components/media/PlayableCover';

/** A sample's cover that plays its video when clicked; not a button while the sample has none. */
export function SampleCover({ sample, onPlay }: { sample: SampleDto; onPlay: (sample: SampleDto) => void }) {
  const { t } = useTranslation();
  return <PlayableCover item={sample} onPlay={onPlay} label={t('market.detail.play', { name: sample.name })} testId={`market-sample-${sample.taskId}`} />;
}

/** Plays a sample's video; closed while `sample` is null. */
export function SampleVideoModal({ sample, onClose }: { sample: SampleDto | null; onClose: () => void }) {
  return <PlayerModal item={sample} onClose={onClose} testId="market-video" />;
}
