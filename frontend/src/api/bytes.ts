const UNITS = ['B', 'KB', 'MB', 'GB', 'TB'];

/**
 * Returns `bytes` in steps of 1024 with `units` (the first for bytes) and `separator` between number
 * and unit: whole numbers for bytes and from 100 up, else one decimal ("1.2", "5", "37").
 */
export function scaleBytes(bytes: number, units: readonly string[], separator: string): string {
  let value = Math.max(0, bytes);
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit += 1;
  }
  const text = unit === 0 || value >= 100 ? String(Math.round(value)) : value.toFixed(1).replace(/\.0$/, '');
  return `${text}${separator}${units[unit]}`;
}

/** Returns a byte count as people read it: 1 KB is 1024 bytes, one decimal below 100 ("1.2 GB", "5 GB", "37 KB"). */
export function formatBytes(bytes: number): string {
  return scaleBytes(bytes, UNITS, ' ');
}
