// restXml documents ↔ values of the model's shapes, as the protocol binds them (Smithy "XML bindings"): element and
// attribute names from `xmlName`, lists and maps wrapped (`<Tags><member>…`) or flattened (repeated elements),
// `xmlAttribute` members as attributes, scalars as text (timestamps ISO 8601, booleans `true`/`false`). Values are
// the JSON-like ones the rest of the endpoint uses (`Wire<…>`: numbers, strings, booleans), so a document read here
// is checked by the same validator as a JSON body. Parsing is @xmldom/xmldom's DOM parser.
import { DOMParser, type Element } from '@xmldom/xmldom';
import { LocalAwsError } from '../errors';
import { xmlEscape } from '../xml';
import type { CompactModel, MemberRef } from './types';

/** A body that is not a well-formed XML document (S3: MalformedXML). */
export class XmlDocumentError extends LocalAwsError {
  override name = 'XmlDocumentError';
}

/** The document's root element, or XmlDocumentError. */
export function parseXmlDocument(text: string): Element {
  let failure: string | undefined;
  const parser = new DOMParser({
    onError: (level, message) => {
      if (level !== 'warning') failure ??= message;
    },
  });
  let root: Element | null = null;
  try {
    root = parser.parseFromString(text, 'text/xml').documentElement;
  } catch (error) {
    failure ??= error instanceof Error ? error.message : String(error);
  }
  if (failure !== undefined || !root)
    throw new XmlDocumentError(`The XML is not well-formed: ${failure ?? 'no root element'}.`, {
      value: text,
    });
  return root;
}

const childElements = (element: Element, name?: string): Element[] => {
  const out: Element[] = [];
  for (let node = element.firstChild; node; node = node.nextSibling) {
    if (node.nodeType === 1 && (name === undefined || (node as Element).localName === localName(name)))
      out.push(node as Element);
  }
  return out;
};

const localName = (name: string) => name.slice(name.indexOf(':') + 1);
const textOf = (element: Element) => element.textContent ?? '';

/** The value of an element read as the shape `ref` targets. Unknown elements are ignored, as S3 ignores them. */
export function readXml(model: CompactModel, ref: MemberRef, element: Element): unknown {
  const shape = model.shapes[ref.target];
  if (!shape) return textOf(element);
  switch (shape.type) {
    case 'structure':
    case 'union': {
      const out: Record<string, unknown> = {};
      for (const [name, member] of Object.entries(shape.members)) {
        const xmlName = member.xmlName ?? name;
        if (member.xmlAttribute) {
          const value = element.getAttribute(xmlName);
          if (value !== null) out[name] = scalar(model, member, value);
          continue;
        }
        const target = model.shapes[member.target];
        const found = childElements(element, xmlName);
        if (target?.type === 'list' && member.xmlFlattened) {
          if (found.length > 0) out[name] = found.map((e) => readXml(model, target.member, e));
        } else if (target?.type === 'map' && member.xmlFlattened) {
          if (found.length > 0) out[name] = readEntries(model, target, found);
        } else if (found[0]) out[name] = readXml(model, member, found[0]);
      }
      return out;
    }
    case 'list':
      return childElements(element, shape.member.xmlName ?? 'member').map((e) =>
        readXml(model, shape.member, e),
      );
    case 'map':
      return readEntries(model, shape, childElements(element, 'entry'));
    default:
      return scalar(model, ref, textOf(element));
  }
}

function readEntries(
  model: CompactModel,
  shape: { key: MemberRef; value: MemberRef },
  entries: Element[],
): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const entry of entries) {
    const key = childElements(entry, shape.key.xmlName ?? 'key')[0];
    const value = childElements(entry, shape.value.xmlName ?? 'value')[0];
    if (key) out[textOf(key)] = value ? readXml(model, shape.value, value) : '';
  }
  return out;
}

/** Text as the member's scalar type; text that is not one stays text (the validator then refuses it). */
function scalar(model: CompactModel, ref: MemberRef, text: string): unknown {
  switch (model.shapes[ref.target]?.type) {
    case 'boolean':
      return text === 'true' ? true : text === 'false' ? false : text;
    case 'byte':
    case 'short':
    case 'integer':
    case 'long':
    case 'intEnum':
      return /^-?\d+$/.test(text.trim()) ? Number(text) : text;
    case 'float':
    case 'double':
      return text.trim() !== '' && Number.isFinite(Number(text)) ? Number(text) : text;
    default:
      return text;
  }
}

/**
 * `value` written as the element `name` of the shape `ref` targets (members absent or null are left out). `xmlns`:
 * the namespace declared on this element (the document root's is the service's).
 */
export function writeXml(
  model: CompactModel,
  ref: MemberRef,
  value: unknown,
  name: string,
  xmlns?: string,
): string {
  const shape = model.shapes[ref.target];
  const declarations = [
    ...(xmlns ? [` xmlns="${xmlEscape(xmlns)}"`] : []),
    ...(ref.xmlNamespace
      ? [
          ` xmlns${ref.xmlNamespace.prefix ? `:${ref.xmlNamespace.prefix}` : ''}="${xmlEscape(ref.xmlNamespace.uri)}"`,
        ]
      : []),
  ].join('');
  if (!shape) return element(name, declarations, xmlEscape(String(value)));
  switch (shape.type) {
    case 'structure':
    case 'union': {
      const record = (value ?? {}) as Record<string, unknown>;
      let attributes = declarations;
      let children = '';
      for (const [memberName, member] of Object.entries(shape.members)) {
        const item = record[memberName];
        if (item === undefined || item === null) continue;
        const xmlName = member.xmlName ?? memberName;
        if (member.xmlAttribute) {
          attributes += ` ${xmlName}="${xmlEscape(scalarText(model, member, item))}"`;
          continue;
        }
        const target = model.shapes[member.target];
        if (target?.type === 'list' && member.xmlFlattened && Array.isArray(item))
          children += item.map((entry) => writeXml(model, target.member, entry, xmlName)).join('');
        else if (target?.type === 'map' && member.xmlFlattened)
          children += writeEntries(model, target, item as Record<string, unknown>, xmlName);
        else children += writeXml(model, member, item, xmlName);
      }
      return element(name, attributes, children);
    }
    case 'list': {
      const items = Array.isArray(value) ? value : [];
      const memberName = shape.member.xmlName ?? 'member';
      return element(
        name,
        declarations,
        items.map((e) => writeXml(model, shape.member, e, memberName)).join(''),
      );
    }
    case 'map':
      return element(
        name,
        declarations,
        writeEntries(model, shape, value as Record<string, unknown>, 'entry'),
      );
    default:
      // A scalar keeps its end tag even when empty (`<Prefix></Prefix>`), as S3 writes it.
      return `<${name}${declarations}>${xmlEscape(scalarText(model, ref, value))}</${name}>`;
  }
}

function writeEntries(
  model: CompactModel,
  shape: { key: MemberRef; value: MemberRef },
  value: Record<string, unknown>,
  entryName: string,
): string {
  return Object.entries(value ?? {})
    .map(
      ([key, item]) =>
        `<${entryName}>${writeXml(model, shape.key, key, shape.key.xmlName ?? 'key')}${writeXml(model, shape.value, item, shape.value.xmlName ?? 'value')}</${entryName}>`,
    )
    .join('');
}

const element = (name: string, attributes: string, content: string) =>
  content === '' ? `<${name}${attributes}/>` : `<${name}${attributes}>${content}</${name}>`;

/** A scalar as XML text: timestamps (epoch seconds or date text) as ISO 8601, the rest as their string. */
export function scalarText(model: CompactModel, ref: MemberRef, value: unknown): string {
  if (model.shapes[ref.target]?.type === 'timestamp') {
    const date = typeof value === 'number' ? new Date(value * 1000) : new Date(String(value));
    if (!Number.isNaN(date.getTime())) return date.toISOString();
  }
  return String(value);
}
