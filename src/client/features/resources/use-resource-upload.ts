import { useEffect, useRef, useState } from 'react';
import { uploadResource } from '#shared/contract/resources';
import type { Resource } from '#shared/resources';
import { sendMultipart } from './upload-request.ts';

/**
 * One upload to the library at a time (POST /api/teacher/upload-resource): its progress (null
 * when none is on its way) and a cancel; leaving the screen cancels it. `send` resolves once
 * `onSent` has run with the new resource, and rejects with an AbortError when cancelled.
 */
export function useResourceUpload() {
  const [progress, setProgress] = useState<number | null>(null);
  const controllerRef = useRef<AbortController | null>(null);
  useEffect(() => () => controllerRef.current?.abort(), []);

  const send = async (body: FormData, onSent: (resource: Resource) => Promise<void> | void) => {
    setProgress(0);
    const controller = new AbortController();
    controllerRef.current = controller;
    try {
      const { data } = await sendMultipart(uploadResource, body, {
        onProgress: setProgress,
        signal: controller.signal,
      });
      await onSent(data);
    } finally {
      controllerRef.current = null;
      setProgress(null);
    }
  };
  return { progress, send, cancel: () => controllerRef.current?.abort() };
}
