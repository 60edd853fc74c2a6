// A catalog imported as `import('./{locale}/messages.po')`: @lingui/vite-plugin compiles it to this.
declare module '*.po' {
  import type { Messages } from '@lingui/core';

  export const messages: Messages;
}
