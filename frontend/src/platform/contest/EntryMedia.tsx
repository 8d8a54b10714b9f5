/** A contest entry's cover and player: the shared playable cover with the contest's names and test ids. */
import { useTranslation } from 'react-i18next';
import type { EntryDto } from '@/api/contest';
import { PlayableCover, PlayerModal } from '@/components/media/PlayableCover';

const playable = (entry: EntryDto) => ({ ...entry, name: entry.taskName });

/** An entry's cover (or a placeholder) that plays its video when clicked. */
export function EntryCover({ entry, onPlay, width }: { entry: EntryDto; onPlay: (entry: EntryDto) => void; width?: number | string }) {
  const { t } = useTranslation();
  return (
    <PlayableCover
      item={playable(entry)}
      onPlay={() => onPlay(entry)}
      label={t('contest.entry.play', { name: entry.taskName })}
      testId={entry.videoUrl ? `contest-play-${entry.id}` : `contest-media-${entry.id}`}
      coverTestId={`contest-cover-${entry.id}`}
      width={width}
    />
  );
}

/** Plays an entry's video; closed while `entry` is null. */
export function EntryVideoModal({ entry, onClose }: { entry: EntryDto | null; onClose: () => void }) {
  return <PlayerModal item={entry && playable(entry)} onClose={onClose} testId="contest-video" />;
}
