import { RuleTester } from 'eslint';
import { builtinRules } from 'eslint/use-at-your-own-risk';
import { describe, it } from 'vitest';
import { NO_SCHEMA_SENTENCES } from './no-schema-sentences.js';

RuleTester.describe = describe;
RuleTester.it = it;

const options = NO_SCHEMA_SENTENCES;
const refused = (code: string) => ({ code, options, errors: 1 });

describe('NO_SCHEMA_SENTENCES (issue 32 point 3)', () => {
  new RuleTester().run('no-restricted-syntax', builtinRules.get('no-restricted-syntax')!, {
    valid: [
      { code: "z.string().check(z.minLength(1), z.refine(isSet, { params: fieldCode('REQUIRED') }))", options },
      { code: "const RULE = { path: ['publishAt'], params: fieldCode('PUBLISH_AFTER_DUE') }", options },
      // A number, not a sentence (a close code).
      { code: 'const CLOSE = { error: 4000 }', options },
      { code: "context.addIssue({ code: 'custom', params: fieldCode(parsed.code) })", options },
    ],
    invalid: [
      refused("z.string({ error: 'Title is required' })"),
      refused('z.maxLength(max, { error: `At most ${max}` })'),
      // Outside a call too: a rule's options kept in a constant.
      refused("const RULE = { error: 'The publish time must come before the due time', path: ['publishAt'] }"),
      refused("context.addIssue({ code: 'custom', message: 'Give extra minutes' })"),
      refused("context.addIssue({ code: 'custom', message: parsed.message })"),
    ],
  });
});
