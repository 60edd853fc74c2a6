import { chmod, rm } from 'node:fs/promises';
import { createConnection, createServer, type Socket } from 'node:net';
import path from 'node:path';
import type { Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { FastifyBaseLogger } from 'fastify';
import type { DatabaseHandle } from '../db/client.ts';
import { packArchive } from './archive.ts';
import { manifestSchema, type BackupManifest } from './manifest.ts';
import { newBackupStaging, takeSnapshot } from './snapshot.ts';

/**
 * How `npm run backup` asks the running server for a snapshot (decision 019): PGlite
 * lives inside the server process, so only the server can copy it between two
 * statements. A Unix socket in DATA_DIR, not an HTTP route: only the server's own user can
 * reach it (DATA_DIR is 0700), nothing is exposed to the network, and it needs no account.
 *
 * Protocol: the client sends one line `{"command":"backup"}`; the server answers one line
 * `{"ok":true,"manifest":{…}}` followed by the gzipped tar until it closes the socket, or
 * `{"ok":false,"message":"…"}`.
 */
export const BACKUP_SOCKET_NAME = 'studyhall.sock';
/** sun_path holds 108 bytes on Linux, 104 on macOS. */
const MAX_SOCKET_PATH_BYTES = 100;
const MAX_REQUEST_BYTES = 1024;

export const backupSocketPath = (dataDir: string) => path.join(dataDir, BACKUP_SOCKET_NAME);

export type BackupSocket = {
  /** Stops accepting; waits for a snapshot being copied (it holds the database), not for its transfer. */
  close(): Promise<void>;
};

/** Listens in DATA_DIR (the caller holds DATA_DIR's lock, so a socket file there is a dead server's). */
export async function listenForBackups(options: {
  dataDir: string;
  database: DatabaseHandle;
  log: FastifyBaseLogger;
}): Promise<BackupSocket | undefined> {
  const socketPath = backupSocketPath(options.dataDir);
  if (Buffer.byteLength(socketPath) > MAX_SOCKET_PATH_BYTES) {
    options.log.warn(
      `DATA_DIR's path is too long for the backup socket (${socketPath}): npm run backup will need the server stopped`,
    );
    return undefined;
  }
  await rm(socketPath, { force: true });
  let snapshotInProgress: Promise<unknown> | undefined;
  const connections = new Set<Socket>();

  const server = createServer((socket) => {
    connections.add(socket);
    socket.once('close', () => connections.delete(socket));
    socket.on('error', () => {}); // the client went away: nothing to report to
    void readRequest(socket).then(async (request) => {
      if (request?.command !== 'backup') return answer(socket, { ok: false, message: 'Unknown request' });
      if (snapshotInProgress) return answer(socket, { ok: false, message: 'Another backup is being taken; try again' });
      const staging = newBackupStaging(options.dataDir);
      let isHeaderSent = false;
      try {
        const startedAt = performance.now();
        const snapshot = takeSnapshot(options.dataDir, options.database, staging);
        snapshotInProgress = snapshot.catch(() => {});
        const manifest = await snapshot.finally(() => (snapshotInProgress = undefined));
        // Requests wait for the database while it is copied: worth knowing as the school grows.
        options.log.info(
          { snapshotMs: Math.round(performance.now() - startedAt), files: manifest.files.count },
          'backup: snapshot taken',
        );
        socket.write(`${JSON.stringify({ ok: true, manifest })}\n`);
        isHeaderSent = true;
        await pipeline(await packArchive(staging, manifest), socket);
      } catch (error) {
        options.log.error({ err: error }, 'backup failed');
        if (!isHeaderSent) answer(socket, { ok: false, message: `The backup failed: ${(error as Error).message}` });
        else socket.destroy(); // cut mid-archive: the client sees an incomplete archive and says so
      } finally {
        await rm(staging, { recursive: true, force: true });
      }
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(socketPath, () => resolve());
  });
  await chmod(socketPath, 0o600);

  return {
    async close() {
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        for (const socket of connections) socket.destroy();
      });
      await snapshotInProgress;
      await rm(socketPath, { force: true });
    },
  };
}

function answer(socket: Socket, message: { ok: false; message: string }) {
  socket.end(`${JSON.stringify(message)}\n`);
}

/** The request line; the socket is left open for the answer (a for-await loop would destroy it on return). */
function readRequest(socket: Socket): Promise<{ command?: unknown } | undefined> {
  return new Promise((resolve) => {
    let text = '';
    const finish = (request: { command?: unknown } | undefined) => {
      socket.removeListener('data', onData);
      socket.removeListener('end', onEnd);
      socket.pause();
      resolve(request);
    };
    const onData = (chunk: Buffer) => {
      text += chunk.toString('utf8');
      const newline = text.indexOf('\n');
      if (newline >= 0) {
        try {
          finish(JSON.parse(text.slice(0, newline)) as { command?: unknown });
        } catch {
          finish(undefined);
        }
      } else if (text.length > MAX_REQUEST_BYTES) finish(undefined);
    };
    const onEnd = () => finish(undefined);
    socket.on('data', onData);
    socket.once('end', onEnd);
  });
}

export class BackupRequestError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'BackupRequestError';
  }
}

/** Client side: asks the server of `dataDir` for a backup and writes the archive's bytes to `output`. */
export async function requestBackup(dataDir: string, output: Writable): Promise<BackupManifest> {
  if (Buffer.byteLength(backupSocketPath(dataDir)) > MAX_SOCKET_PATH_BYTES) {
    throw new BackupRequestError(
      `The server is running, and DATA_DIR's path is too long for it to take backups on request: stop the server and run npm run backup again (it then takes the backup itself), or move DATA_DIR to a shorter path`,
    );
  }
  const socket = createConnection(backupSocketPath(dataDir));
  await new Promise<void>((resolve, reject) => {
    socket.once('connect', resolve);
    socket.once('error', (error) =>
      reject(
        new BackupRequestError(`The running server did not answer on ${backupSocketPath(dataDir)} (${error.message})`),
      ),
    );
  });
  socket.write(`${JSON.stringify({ command: 'backup' })}\n`);

  let header = '';
  let manifest: BackupManifest | undefined;
  const archiveBytes = async function* () {
    for await (const chunk of socket as AsyncIterable<Buffer>) {
      if (manifest) {
        yield chunk;
        continue;
      }
      header += chunk.toString('latin1'); // byte for byte, so the rest can be cut off exactly
      const newline = header.indexOf('\n');
      if (newline < 0) continue;
      const reply = JSON.parse(Buffer.from(header.slice(0, newline), 'latin1').toString('utf8')) as {
        ok: boolean;
        message?: string;
        manifest?: unknown;
      };
      if (!reply.ok) throw new BackupRequestError(reply.message ?? 'The server refused the backup');
      manifest = manifestSchema.parse(reply.manifest);
      const rest = Buffer.from(header.slice(newline + 1), 'latin1');
      if (rest.length > 0) yield rest;
    }
    if (!manifest) throw new BackupRequestError('The server closed the connection without an answer');
  };
  try {
    await pipeline(archiveBytes, output);
  } finally {
    socket.destroy();
  }
  return manifest!;
}
