/**
 * Right to left is designed, not mirrored by accident (issue 32 point 6, decision 055): the client
 * lays out with logical properties, so an Arabic page starts on the right by itself. This rule
 * refuses Tailwind classes and inline styles that name a physical side (ml-4, pr-2, left-0,
 * text-right, rounded-l-md, marginLeft; in a JSX style object also left, right, textAlign: 'left'
 * and float: 'right') in any string of the client; their logical twins (ms-4, pe-2, start-0,
 * text-end, rounded-s-md, marginInlineStart, insetInlineStart, textAlign: 'start') follow the
 * page's direction.
 * `left-1/2` stays allowed: with -translate-x-1/2 it centres, the same in both directions.
 */

const PHYSICAL_WITH_VALUE =
  /^-?(m[lr]|p[lr]|left|right|inset-[lr]|border-[lr]|rounded-[lr]|rounded-(tl|tr|bl|br)|scroll-m[lr]|scroll-p[lr])-\S+$/;
const PHYSICAL_BARE =
  /^(border-[lr]|rounded-[lr]|rounded-(tl|tr|bl|br)|text-(left|right)|float-(left|right)|clear-(left|right))$/;
// left-to-right and right-to-left are words of a sentence, not classes.
const ALLOWED = new Set(['left-1/2', '-left-1/2', 'right-1/2', 'left-to-right', 'right-to-left']);
const LOGICAL = {
  ml: 'ms',
  mr: 'me',
  pl: 'ps',
  pr: 'pe',
  left: 'start',
  right: 'end',
  'text-left': 'text-start',
  'text-right': 'text-end',
  'border-l': 'border-s',
  'border-r': 'border-e',
  'rounded-l': 'rounded-s',
  'rounded-r': 'rounded-e',
  'rounded-tl': 'rounded-ss',
  'rounded-tr': 'rounded-se',
  'rounded-bl': 'rounded-es',
  'rounded-br': 'rounded-ee',
  'float-left': 'float-start',
  'float-right': 'float-end',
};
const PHYSICAL_STYLES = /^(margin|padding|border)(Left|Right)|^border(Top|Bottom)(Left|Right)Radius$/;
// In a JSX style object only: elsewhere `left` and `right` are words of geometry (a canvas's point).
const PHYSICAL_STYLE_SIDES = new Set(['left', 'right']);
const PHYSICAL_STYLE_VALUES = { textAlign: ['left', 'right'], float: ['left', 'right'], clear: ['left', 'right'] };

/** Whether an object literal is what a JSX `style` attribute is given: `style={{ … }}`. */
function isJsxStyleObject(object) {
  const container = object?.parent;
  return (
    object?.type === 'ObjectExpression' &&
    container?.type === 'JSXExpressionContainer' &&
    container.parent?.type === 'JSXAttribute' &&
    container.parent.name?.name === 'style'
  );
}

/** The physical class of a class list, if any: `md:hover:!-ml-2` is `-ml-2` after its variants. */
export function physicalClass(text) {
  for (const token of text.split(/\s+/)) {
    const utility = token.slice(token.lastIndexOf(':') + 1).replace(/^!/, '');
    if (ALLOWED.has(utility)) continue;
    if (PHYSICAL_WITH_VALUE.test(utility) || PHYSICAL_BARE.test(utility)) return token;
  }
  return undefined;
}

function suggestion(token) {
  const utility = token.slice(token.lastIndexOf(':') + 1).replace(/^[!-]+/, '');
  const key = Object.keys(LOGICAL)
    .sort((a, b) => b.length - a.length)
    .find((name) => utility === name || utility.startsWith(`${name}-`));
  return key ? `${LOGICAL[key]}${utility.slice(key.length)}` : 'its logical twin';
}

export default {
  meta: {
    type: 'problem',
    docs: { description: 'Logical, not physical, sides in the client (right-to-left locales)' },
    schema: [],
    messages: {
      physicalClass:
        '"{{token}}" names a physical side: use {{logical}} so right-to-left pages mirror it (decision 055).',
      physicalStyle: '"{{name}}" names a physical side: use its inline-start/end twin (decision 055).',
    },
  },
  create(context) {
    const check = (node, text) => {
      const token = physicalClass(text);
      if (token) context.report({ node, messageId: 'physicalClass', data: { token, logical: suggestion(token) } });
    };
    return {
      Literal(node) {
        if (typeof node.value === 'string') check(node, node.value);
      },
      TemplateElement(node) {
        check(node, node.value.cooked ?? node.value.raw);
      },
      Property(node) {
        const name = node.key.type === 'Identifier' ? node.key.name : node.key.value;
        if (typeof name !== 'string') return;
        if (PHYSICAL_STYLES.test(name)) {
          context.report({ node: node.key, messageId: 'physicalStyle', data: { name } });
          return;
        }
        if (!isJsxStyleObject(node.parent)) return;
        const value = node.value.type === 'Literal' ? node.value.value : undefined;
        if (PHYSICAL_STYLE_SIDES.has(name) || PHYSICAL_STYLE_VALUES[name]?.includes(value)) {
          context.report({ node: node.key, messageId: 'physicalStyle', data: { name } });
        }
      },
    };
  },
};
