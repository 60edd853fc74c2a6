// The shared schemas carry codes, not sentences (issue 32 point 3, decision 026's third addendum):
// the client words codes in the reader's language, the server its English. `no-restricted-syntax`
// options for src/shared (eslint.config.js), tested in no-schema-sentences.test.ts.
export const NO_SCHEMA_SENTENCES = [
  {
    selector: 'Property[key.name="error"]:matches([value.raw=/^[\'"]/], [value.type="TemplateLiteral"])',
    message:
      'A schema names a code (fieldCode in field-error-codes.ts), not an English sentence (NO_SCHEMA_SENTENCES).',
  },
  {
    selector: 'CallExpression[callee.property.name="addIssue"] > ObjectExpression > Property[key.name="message"]',
    message:
      'An issue names a code (fieldCode in field-error-codes.ts), not an English sentence (NO_SCHEMA_SENTENCES).',
  },
];
