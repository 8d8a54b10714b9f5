import { PictureOutlined } from '@ant-design/icons';

const BOX = { width: 96, height: 54, objectFit: 'cover', borderRadius: 4, background: '#f0f0f5' } as const;

/** A small cover picture in a table row, or a placeholder while there is none. */
export function Thumb({ src, alt }: { src: string; alt: string }) {
  if (!src)
    return (
      <span style={{ ...BOX, display: 'inline-flex', alignItems: 'center', justifyContent: 'center' }}>
        <PictureOutlined style={{ fontSize: 20, color: '#bbb' }} aria-hidden />
      </span>
    );
  return <img src={src} alt={alt} style={BOX} />;
}
