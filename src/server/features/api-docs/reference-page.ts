import type { JsonSchema, OpenApiDocument, Operation } from './openapi.ts';

/**
 * /api/docs: the OpenAPI document as a page to read, rendered on the server. No script (the
 * CSP allows only our own, and a reference needs none) and no inline style: its stylesheet is
 * /api/docs/reference.css. Schemas read as TypeScript-like types, which both sides write in.
 */

const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (character) => `&#${character.charCodeAt(0)};`);

const INDENT = '  ';

/** A JSON schema as a short type: `{ title: string; tags?: string[] }`, with its bounds as comments. */
export function typeText(schema: JsonSchema, depth = 0): string {
  if ('const' in schema) return JSON.stringify(schema.const);
  if (Array.isArray(schema.enum)) return schema.enum.map((value) => JSON.stringify(value)).join(' | ');
  for (const key of ['anyOf', 'oneOf'] as const) {
    if (Array.isArray(schema[key]))
      return (schema[key] as JsonSchema[]).map((part) => typeText(part, depth)).join(' | ');
  }
  if (Array.isArray(schema.allOf))
    return (schema.allOf as JsonSchema[]).map((part) => typeText(part, depth)).join(' & ');
  const type = schema.type;
  if (Array.isArray(type)) return type.map((one) => typeText({ ...schema, type: one }, depth)).join(' | ');
  switch (type) {
    case 'object':
      return objectText(schema, depth);
    case 'array':
      return `${wrapped(typeText((schema.items ?? {}) as JsonSchema, depth))}[]`;
    case 'integer':
      return 'integer';
    case 'string':
      return typeof schema.format === 'string' ? `string (${schema.format})` : 'string';
    case 'number':
    case 'boolean':
    case 'null':
      return type;
    default:
      return 'unknown';
  }
}

const wrapped = (text: string) => (text.includes(' | ') || text.includes(' & ') ? `(${text})` : text);

function objectText(schema: JsonSchema, depth: number): string {
  const properties = Object.entries((schema.properties ?? {}) as Record<string, JsonSchema>);
  const extra = schema.additionalProperties;
  if (properties.length === 0) {
    return extra && typeof extra === 'object' ? `Record<string, ${typeText(extra as JsonSchema, depth)}>` : '{}';
  }
  const required = new Set((schema.required as string[] | undefined) ?? []);
  const inner = INDENT.repeat(depth + 1);
  const lines = properties.map(([name, property]) => {
    const note = boundsOf(property);
    return `${inner}${name}${required.has(name) ? '' : '?'}: ${typeText(property, depth + 1)};${note ? ` // ${note}` : ''}`;
  });
  return `{\n${lines.join('\n')}\n${INDENT.repeat(depth)}}`;
}

function boundsOf(schema: JsonSchema): string {
  const notes: string[] = [];
  if (typeof schema.description === 'string') notes.push(schema.description);
  const { minLength, maxLength } = schema;
  if (typeof minLength === 'number' || typeof maxLength === 'number')
    notes.push(
      `${typeof minLength === 'number' ? minLength : 0}–${typeof maxLength === 'number' ? maxLength : '…'} characters`,
    );
  if (typeof schema.maxItems === 'number') notes.push(`at most ${schema.maxItems}`);
  if (typeof schema.minimum === 'number' && typeof schema.maximum === 'number' && schema.maximum < 2 ** 31)
    notes.push(`${schema.minimum}–${schema.maximum}`);
  if (schema.default !== undefined) notes.push(`default ${JSON.stringify(schema.default)}`);
  return notes.join('; ');
}

const code = (text: string) => `<pre><code>${escapeHtml(text)}</code></pre>`;

function operationSection(method: string, path: string, operation: Operation): string {
  const parts: string[] = [
    `<section class="operation" id="${escapeHtml(operation.operationId)}">`,
    `<h3><span class="method method-${method}">${method.toUpperCase()}</span> <code>${escapeHtml(path)}</code></h3>`,
    `<p>${escapeHtml(operation.summary)}</p>`,
  ];
  if (operation.description) parts.push(`<p class="muted">${escapeHtml(operation.description)}</p>`);
  parts.push(`<p><strong>Who may call:</strong> ${escapeHtml(operation['x-caller'])}</p>`);
  if (operation.parameters?.length) {
    const rows = operation.parameters
      .map(
        (parameter) =>
          `<tr><td><code>${escapeHtml(parameter.name)}</code></td><td>${parameter.in}</td><td>${parameter.required ? 'yes' : 'no'}</td><td><code>${escapeHtml(typeText(parameter.schema))}</code> ${escapeHtml(boundsOf(parameter.schema))}</td></tr>`,
      )
      .join('');
    parts.push(
      `<h4>Parameters</h4><table><thead><tr><th>name</th><th>in</th><th>required</th><th>type</th></tr></thead><tbody>${rows}</tbody></table>`,
    );
  }
  if (operation.requestBody) {
    for (const [mediaType, { schema }] of Object.entries(operation.requestBody.content)) {
      parts.push(`<h4>Body (${escapeHtml(mediaType)})</h4>`, code(typeText(schema)));
    }
  }
  parts.push('<h4>Answers</h4><dl>');
  for (const [status, response] of Object.entries(operation.responses)) {
    parts.push(`<dt>${escapeHtml(status)}</dt><dd>`);
    const schema = Object.values(response.content ?? {})[0]?.schema;
    const isFailure = Number(status) >= 400;
    if (isFailure) {
      const codes = ((schema?.properties as Record<string, JsonSchema> | undefined)?.code?.enum ?? []) as string[];
      parts.push(codes.map((one) => `<code>${escapeHtml(one)}</code>`).join(', '));
    } else {
      parts.push(escapeHtml(response.description));
      if (schema) parts.push(code(typeText(schema)));
    }
    parts.push('</dd>');
  }
  parts.push('</dl>');
  if (operation['x-websocket'])
    parts.push('<h4>Messages</h4>', code(JSON.stringify(operation['x-websocket'], null, 2)));
  parts.push('</section>');
  return parts.join('\n');
}

/** The rows of a named list a component schema describes, one `name: meaning` a line. */
function describedRows(schema: JsonSchema | undefined): string {
  const description = schema?.description;
  return (typeof description === 'string' ? description : '')
    .split('\n')
    .map((line) => {
      const [name = '', meaning = ''] = line.split(/: (.*)/s);
      return `<tr><td><code>${escapeHtml(name)}</code></td><td>${escapeHtml(meaning)}</td></tr>`;
    })
    .join('');
}

/** The whole page for a document. */
export function renderReferencePage(document: OpenApiDocument): string {
  const byTag = new Map<string, string[]>();
  for (const [path, operations] of Object.entries(document.paths)) {
    for (const [method, operation] of Object.entries(operations)) {
      const tag = operation.tags[0] ?? 'other';
      byTag.set(tag, [...(byTag.get(tag) ?? []), operationSection(method, path, operation)]);
    }
  }
  const tags = [...byTag.keys()].sort();
  const errorCodes = describedRows(document.components.schemas.ErrorCode);
  const throttleLimits = describedRows(document.components.schemas.ThrottleLimit);
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(document.info.title)} reference</title>
<link rel="stylesheet" href="/api/docs/reference.css">
</head>
<body>
<header>
<h1>${escapeHtml(document.info.title)} <small>${escapeHtml(document.info.version)}</small></h1>
<p>${escapeHtml(document.info.description)}</p>
<p>The same as a document: <a href="/api/openapi.json">/api/openapi.json</a> (OpenAPI ${escapeHtml(document.openapi)}).</p>
<nav aria-label="Features"><ul>${tags.map((tag) => `<li><a href="#${escapeHtml(tag)}">${escapeHtml(tag)}</a></li>`).join('')}<li><a href="#error-codes">error codes</a></li><li><a href="#throttle-limits">throttle limits</a></li></ul></nav>
</header>
<main>
${tags.map((tag) => `<section id="${escapeHtml(tag)}"><h2>${escapeHtml(tag)}</h2>\n${(byTag.get(tag) ?? []).join('\n')}</section>`).join('\n')}
<section id="error-codes"><h2>Error codes</h2><table><thead><tr><th>code</th><th>status and meaning</th></tr></thead><tbody>${errorCodes}</tbody></table></section>
<section id="throttle-limits"><h2>Throttle limits</h2><p>The <code>limit</code> of a <code>THROTTLED</code> failure, beside <code>retryAfterSeconds</code>: the budget that refused.</p><table><thead><tr><th>limit</th><th>what it counts</th></tr></thead><tbody>${throttleLimits}</tbody></table></section>
</main>
</body>
</html>
`;
}

export const REFERENCE_STYLESHEET = `body{font:15px/1.5 system-ui,sans-serif;color:#0f172a;margin:0 auto;max-width:72rem;padding:1rem 1.5rem 4rem}
h1 small{font-size:.6em;color:#475569}h2{margin-top:2.5rem;border-bottom:2px solid #cbd5e1;text-transform:capitalize}
nav ul{display:flex;flex-wrap:wrap;gap:.25rem 1rem;padding:0;list-style:none}a{color:#1d4ed8}
.operation{border:1px solid #cbd5e1;border-radius:.5rem;padding:.25rem 1rem;margin:1rem 0}
.operation h3{font-size:1rem;margin:.75rem 0 .25rem;word-break:break-all}.muted{color:#475569}
.method{display:inline-block;min-width:4.5rem;padding:0 .5rem;border-radius:.25rem;color:#fff;background:#334155;text-align:center}
.method-get{background:#1d4ed8}.method-post{background:#15803d}.method-put,.method-patch{background:#a16207}.method-delete{background:#b91c1c}
pre{background:#f1f5f9;padding:.5rem .75rem;border-radius:.25rem;overflow-x:auto;font-size:13px}
table{border-collapse:collapse;width:100%;font-size:14px}td,th{border:1px solid #cbd5e1;padding:.25rem .5rem;text-align:left;vertical-align:top}
dt{font-weight:600;margin-top:.5rem}dd{margin-left:1.5rem}
td,th,code,dd{overflow-wrap:anywhere}
@media (max-width:40rem){body{padding:.75rem .75rem 3rem}dd{margin-left:.75rem}.operation{padding:.25rem .5rem}}
`;
