import { PlayCircleOutlined } from '@ant-design/icons';
import { withTicket } from '@/api/videoTask';

const BOX = { borderRadius: 6, background: '#f0f0f5', display: 'flex', alignItems: 'center', justifyContent: 'center', overflow: 'hidden' } as const;

export interface TaskCoverProps {
  coverUrl: string;
  ticket: string | undefined;
  alt: string;
  /** CSS width and height; a 96x54 thumbnail by default. */
  width?: number | string;
  height?: number;
}

/** A finished task's cover as a thumbnail, or a placeholder until there is one. */
export function TaskCover({ coverUrl, ticket, alt, width = 96, height = 54 }: TaskCoverProps) {
  const box = { ...BOX, width, height };
  if (!coverUrl || !ticket) {
    return (
      <div style={box} aria-hidden>
        <PlayCircleOutlined style={{ fontSize: 20, color: '#bbb' }} />
      </div>
    );
  }
  return (
    <div style={box}>
      <img src={withTicket(coverUrl, ticket)} alt={alt} style={{ width: '100%', height: '100%', objectFit: 'cover' }} data-testid="task-cover" />
    </div>
  );
}
