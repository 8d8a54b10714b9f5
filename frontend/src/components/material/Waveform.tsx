import { useQuery } from '@tanstack/react-query';
import { useEffect, useRef } from 'react';

/** The peaks (0..1) a music material's waveform file holds (made at upload), read from its address. */
export function usePeaks(url: string | undefined): number[] | undefined {
  return useQuery({
    queryKey: ['material', 'waveform', url],
    queryFn: async () => {
      const answer = await fetch(url ?? '');
      const peaks: unknown = await answer.json();
      return Array.isArray(peaks) ? peaks.filter((p): p is number => typeof p === 'number') : [];
    },
    enabled: Boolean(url),
    staleTime: Infinity,
  }).data;
}

/** Draws peaks as a mirrored waveform filling a canvas of the given size. */
export function Waveform({ peaks, width, height, colour = 'rgba(255,255,255,0.85)', absolute = true }: { peaks: number[]; width: number; height: number; colour?: string; absolute?: boolean }) {
  const ref = useRef<HTMLCanvasElement>(null);
  useEffect(() => {
    const canvas = ref.current;
    const ctx = canvas?.getContext('2d');
    if (!canvas || !ctx || peaks.length === 0 || width <= 0) return;
    const dpr = window.devicePixelRatio || 1;
    canvas.width = Math.round(width * dpr);
    canvas.height = Math.round(height * dpr);
    ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
    ctx.fillStyle = colour;
    const mid = height / 2;
    for (let x = 0; x < width; x += 2) {
      const p = peaks[Math.min(peaks.length - 1, Math.floor((x / width) * peaks.length))] ?? 0;
      const h = Math.max(1, p * (height - 2));
      ctx.fillRect(x, mid - h / 2, 1, h);
    }
  }, [peaks, width, height, colour]);
  return <canvas ref={ref} data-testid="waveform" style={absolute ? { position: 'absolute', inset: 0, width, height } : { display: 'block', width, height }} />;
}
