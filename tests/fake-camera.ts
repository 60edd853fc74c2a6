import { writeFileSync } from 'node:fs';

export type FakeCameraSettings = { width: number; height: number; framesPerSecond: number; seconds: number };

/**
 * A small moving picture for Chromium's fake camera (`--use-file-for-fake-video-capture`), written
 * as Y4M (4:2:0), which Chromium loops: a grey ramp with a bright square crossing it, so the
 * encoders have motion to code and a decoded video's frames differ. Chromium's own fake camera is
 * 640×480 whatever the page asks; a class of eight on two cores needs fewer pixels than that.
 */
export function writeFakeCamera(file: string, { width, height, framesPerSecond, seconds }: FakeCameraSettings) {
  const frames = framesPerSecond * seconds;
  const square = Math.round(height / 3);
  const lumaSize = width * height;
  const chromaSize = (width / 2) * (height / 2);
  const header = Buffer.from(`YUV4MPEG2 W${width} H${height} F${framesPerSecond}:1 Ip A1:1 C420jpeg\n`);
  const frameMark = Buffer.from('FRAME\n');
  const frameSize = frameMark.length + lumaSize + 2 * chromaSize;
  const video = Buffer.alloc(header.length + frames * frameSize);
  header.copy(video);
  for (let frame = 0; frame < frames; frame += 1) {
    const start = header.length + frame * frameSize;
    frameMark.copy(video, start);
    const luma = start + frameMark.length;
    const left = Math.round(((width - square) * frame) / frames);
    const top = Math.round((height - square) / 2);
    for (let y = 0; y < height; y += 1) {
      for (let x = 0; x < width; x += 1) {
        const isSquare = x >= left && x < left + square && y >= top && y < top + square;
        video[luma + y * width + x] = isSquare ? 235 : 16 + Math.round((160 * (x + y)) / (width + height));
      }
    }
    // Blue-ish and red-ish halves, so the picture is not grey.
    const blue = luma + lumaSize;
    video.fill(150, blue, blue + chromaSize);
    video.fill(110, blue + chromaSize, blue + 2 * chromaSize);
  }
  writeFileSync(file, video);
}
