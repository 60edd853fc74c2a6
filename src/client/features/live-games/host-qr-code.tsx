import { useMemo } from 'react';
import { encode } from 'uqr';

/**
 * The join address with the game's PIN as a QR code, drawn here (no service sees the PIN): one
 * SVG path of the dark modules, with a quiet zone of 4 (the standard's). `uqr` is imported only
 * by the host page's lazy chunk (scripts/check-bundle.mjs keeps it there).
 */
export function HostQrCode({ value, label }: { value: string; label: string }) {
  const { size, path } = useMemo(() => {
    const border = 4;
    const qr = encode(value, { ecc: 'M', border });
    let d = '';
    qr.data.forEach((row, y) =>
      row.forEach((isDark, x) => {
        if (isDark) d += `M${x} ${y}h1v1h-1z`;
      }),
    );
    return { size: qr.size, path: d };
  }, [value]);
  return (
    <svg
      role="img"
      aria-label={label}
      viewBox={`0 0 ${size} ${size}`}
      shapeRendering="crispEdges"
      className="size-48 sm:size-60"
    >
      <rect width={size} height={size} fill="#fff" />
      <path d={path} fill="#000" />
    </svg>
  );
}
