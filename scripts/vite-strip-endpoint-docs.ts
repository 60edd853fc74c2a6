import type { Plugin } from 'vite';

/**
 * The endpoints' `summary` and `description` (src/shared/contract) document /api/docs; the client
 * never reads them, yet every screen downloaded them with the contract (about 2 kB gzipped on the
 * quiz editor). The client's build empties them. Newlines inside a removed text are kept, so every
 * later line keeps its place and the source maps stay true.
 */
export function stripEndpointDocs(): Plugin {
  const documented = /\b(summary|description):(\s*)('(?:[^'\\\n]|\\.)*'|"(?:[^"\\\n]|\\.)*"|`(?:[^`\\]|\\.)*`)/g;
  return {
    name: 'studyhall:strip-endpoint-docs',
    apply: 'build',
    transform(code, id) {
      if (!/[\\/]src[\\/]shared[\\/]contract[\\/][^\\/]+\.ts$/.test(id)) return null;
      const stripped = code.replace(documented, (_, key: string, space: string, text: string) => {
        const lines = '\n'.repeat((text.match(/\n/g) ?? []).length);
        return `${key}:${space}''${lines}`;
      });
      return stripped === code ? null : { code: stripped, map: null };
    },
  };
}
