import { readFileSync, readdirSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from '@jest/globals';
import { IntlMessageFormat } from 'intl-messageformat';
import { INTL_TAGS, LOCALES, type Locale } from '../lib/i18n/locale';

/**
 * The catalogues' completeness (docs/i18n.md): en.json is the source of keys; every other
 * locale has exactly its keys with the same ICU variables and tags, each plural has the
 * locale's categories, and every key is used in portal/src.
 *
 * "Used" is a static scan: a key counts when it appears whole as a string literal anywhere in
 * the source (`t('market.card.free')`, `i18nKey="..."`, a typed table of keys), or matches a
 * template literal with a dotted literal prefix whose `${...}` parts each stand for one key
 * segment (`t(`market.card.action.${action}`)`): the documented form for dynamic keys. The
 * control plane's namespaces (e-mails, the subscription page) are scanned in control-plane/src.
 */

const SRC = join(__dirname, '..');

type Catalogue = { [key: string]: string | Catalogue };

/** The common catalogue (`translation`, `locales/<locale>.json`) and every namespace directory. */
const NAMESPACES = [
  'translation',
  ...readdirSync(__dirname).filter((name) => statSync(join(__dirname, name)).isDirectory()),
];

function readCatalogue(namespace: string, locale: Locale): Catalogue {
  const file = namespace === 'translation' ? `${locale}.json` : join(namespace, `${locale}.json`);
  return JSON.parse(readFileSync(join(__dirname, file), 'utf8')) as Catalogue;
}

function flatten(catalogue: Catalogue, prefix = ''): Map<string, string> {
  const out = new Map<string, string>();
  for (const [key, value] of Object.entries(catalogue)) {
    const path = prefix ? `${prefix}.${key}` : key;
    if (typeof value === 'string') out.set(path, value);
    else for (const [k, v] of flatten(value, path)) out.set(k, v);
  }
  return out;
}

interface Shape {
  variables: string[];
  tags: string[];
  plurals: Record<string, string>[];
}

interface AstElement {
  type: number;
  value?: string;
  options?: Record<string, { value: AstElement[] }>;
  children?: AstElement[];
}

/** Variables, tags and plural option sets of an ICU message (intl-messageformat's AST). */
function shapeOf(message: string, locale: Locale): Shape {
  const ast = new IntlMessageFormat(message, INTL_TAGS[locale]).getAst() as AstElement[];
  const variables = new Set<string>();
  const tags = new Set<string>();
  const plurals: Record<string, string>[] = [];
  const walk = (elements: AstElement[]) => {
    for (const element of elements) {
      // 1 argument, 2 number, 3 date, 4 time, 5 select, 6 plural, 8 tag.
      if (element.type >= 1 && element.type <= 6 && element.value) variables.add(element.value);
      if (element.type === 8 && element.value) tags.add(element.value);
      if (element.type === 6 && element.options) {
        plurals.push({
          variable: element.value ?? '',
          options: Object.keys(element.options).sort().join(' '),
        });
      }
      for (const option of Object.values(element.options ?? {})) walk(option.value);
      walk(element.children ?? []);
    }
  };
  walk(ast);
  return { variables: [...variables].sort(), tags: [...tags].sort(), plurals };
}

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return sourceFiles(path);
    return /\.(ts|tsx)$/.test(name) && !/\.spec\.tsx?$/.test(name) ? [path] : [];
  });
}

/** The literal keys and dynamic-key patterns found in the source files. */
function scanSource(files: readonly string[]): { literals: Set<string>; patterns: RegExp[] } {
  const literals = new Set<string>();
  const patterns: RegExp[] = [];
  for (const file of files) {
    const text = readFileSync(file, 'utf8');
    for (const match of text.matchAll(/(['"])([A-Za-z0-9_.]+)\1/g)) literals.add(match[2] ?? '');
    for (const match of text.matchAll(
      /`([A-Za-z0-9_.]*\.[A-Za-z0-9_.]*(?:\$\{[^}]+\}[A-Za-z0-9_.]*)+)`/g,
    )) {
      const source = (match[1] ?? '')
        .split(/\$\{[^}]+\}/)
        .map((part) => part.replace(/\./g, '\\.'))
        .join('[A-Za-z0-9_]+');
      patterns.push(new RegExp(`^${source}$`));
    }
  }
  return { literals, patterns };
}

/** Keys of `catalogue` that the scan never reaches. */
function unusedKeys(keys: Iterable<string>, scan: ReturnType<typeof scanSource>): string[] {
  return [...keys].filter(
    (key) => !scan.literals.has(key) && !scan.patterns.some((pattern) => pattern.test(key)),
  );
}

const sources = sourceFiles(SRC).filter((file) => !relative(SRC, file).startsWith('locales'));
const scan = scanSource(sources);

/**
 * The namespaces the control plane speaks from (its e-mails and the subscription page,
 * control-plane/src/i18n/catalogues.ts): their keys are used in control-plane/src.
 */
const SERVER_NAMESPACES = new Set(['email', 'sub-page']);
const serverScan = scanSource(sourceFiles(join(SRC, '../../control-plane/src')));

describe.each(NAMESPACES)('the catalogue %s', (namespace) => {
  const en = flatten(readCatalogue(namespace, 'en'));

  it('should parse every English message as ICU', () => {
    const broken = [...en].filter(([, message]) => {
      try {
        shapeOf(message, 'en');
        return false;
      } catch {
        return true;
      }
    });
    expect(broken).toEqual([]);
  });

  for (const locale of LOCALES.filter((l) => l !== 'en')) {
    describe(locale, () => {
      const catalogue = flatten(readCatalogue(namespace, locale));

      it('should have every key of en.json and no other', () => {
        expect([...en.keys()].filter((key) => !catalogue.has(key))).toEqual([]);
        expect([...catalogue.keys()].filter((key) => !en.has(key))).toEqual([]);
      });

      it('should use the same ICU variables and tags as en.json in every message', () => {
        const differing: string[] = [];
        for (const [key, source] of en) {
          const message = catalogue.get(key);
          if (message === undefined) continue;
          const want = shapeOf(source, 'en');
          const got = shapeOf(message, locale);
          if (
            want.variables.join() !== got.variables.join() ||
            want.tags.join() !== got.tags.join()
          ) {
            differing.push(
              `${key}: {${want.variables}} <${want.tags}> vs {${got.variables}} <${got.tags}>`,
            );
          }
        }
        expect(differing).toEqual([]);
      });

      it("should give every plural the locale's categories", () => {
        const categories = new Intl.PluralRules(INTL_TAGS[locale]).resolvedOptions()
          .pluralCategories;
        const missing: string[] = [];
        for (const [key, message] of catalogue) {
          for (const plural of shapeOf(message, locale).plurals) {
            const options = (plural.options ?? '').split(' ');
            const absent = categories.filter((category) => !options.includes(category));
            if (absent.length) missing.push(`${key}: ${absent.join(', ')}`);
          }
        }
        expect(missing).toEqual([]);
      });
    });
  }

  it('should use every key of en.json somewhere in portal/src (control-plane/src for its own)', () => {
    expect(unusedKeys(en.keys(), SERVER_NAMESPACES.has(namespace) ? serverScan : scan)).toEqual([]);
  });
});

describe('the completeness checks themselves', () => {
  it('should report a key that no source file uses', () => {
    const scan = { literals: new Set(['a.used']), patterns: [/^a\.dynamic\.[A-Za-z0-9_]+$/] };
    expect(unusedKeys(['a.used', 'a.dynamic.x', 'a.unused'], scan)).toEqual(['a.unused']);
  });

  it('should read variables, tags and plural options from a message', () => {
    expect(shapeOf('{count, plural, one {<b>#</b> {name}} other {# x}}', 'en')).toEqual({
      variables: ['count', 'name'],
      tags: ['b'],
      plurals: [{ variable: 'count', options: 'one other' }],
    });
  });
});
