/**
 * A work's cover at 16:9 that plays its video in a dialog when clicked: contest entries and the
 * marketplace's samples (each page names its own labels and test ids).
 */
import { PlayCircleOutlined } from '@ant-design/icons';
import { Modal } from 'antd';

/** What a cover shows and plays: signed same-origin addresses, "" when there is none. */
export interface Playable {
  name: string;
  coverUrl: string;
  videoUrl: string;
}

const BOX = {
  position: 'relative',
  width: '100%',
  aspectRatio: '16 / 9',
  background: '#f0f0f5',
  borderRadius: 6,
  overflow: 'hidden',
  display: 'flex',
  alignItems: 'center',
  justifyContent: 'center',
  border: 'none',
  padding: 0,
} as const;

const placeholder = <PlayCircleOutlined style={{ fontSize: 24, color: '#bbb' }} />;

/** A picture box at 16:9: the cover when there is one, else a quiet placeholder. */
export function CoverBox({ coverUrl, alt, testId }: { coverUrl: string; alt: string; testId?: string }) {
  return (
    <div style={BOX} data-testid={testId}>
      {coverUrl ? <img src={coverUrl} alt={alt} style={{ width: '100%', height: '100%', objectFit: 'cover' }} /> : placeholder}
    </div>
  );
}

export interface PlayableCoverProps<T extends Playable> {
  item: T;
  /** Plays the item's video; the cover is not a button while it has none. */
  onPlay: (item: T) => void;
  /** The button's accessible name. */
  label: string;
  testId: string;
  /** The cover picture's own test id. */
  coverTestId?: string;
  /** CSS width of the box; the height follows at 16:9. */
  width?: number | string;
}

/** An item's cover (or a placeholder) that plays its video when clicked. */
export function PlayableCover<T extends Playable>({ item, onPlay, label, testId, coverTestId, width = '100%' }: PlayableCoverProps<T>) {
  const picture = item.coverUrl ? <img src={item.coverUrl} alt={item.name} style={{ width: '100%', height: '100%', objectFit: 'cover' }} data-testid={coverTestId} /> : null;
  if (!item.videoUrl) {
    return (
      <div style={{ ...BOX, width }} data-testid={testId}>
        {picture ?? placeholder}
      </div>
    );
  }
  return (
    <button type="button" style={{ ...BOX, width, cursor: 'pointer' }} onClick={() => onPlay(item)} aria-label={label} data-testid={testId}>
      {picture}
      <PlayCircleOutlined style={{ position: 'absolute', fontSize: 36, color: 'rgba(255,255,255,0.9)', textShadow: '0 0 6px rgba(0,0,0,0.5)' }} />
    </button>
  );
}

/** Plays an item's video; closed while `item` is null. */
export function PlayerModal({ item, onClose, testId }: { item: Playable | null; onClose: () => void; testId: string }) {
  return (
    <Modal open={item !== null} title={item?.name} footer={null} width={800} onCancel={onClose} destroyOnHidden>
      {item ? (
        <video
          src={item.videoUrl}
          poster={item.coverUrl || undefined}
          controls
          autoPlay
          playsInline
          style={{ width: '100%', maxHeight: '70vh', background: '#000' }}
          data-testid={testId}
        />
      ) : null}
    </Modal>
  );
}
