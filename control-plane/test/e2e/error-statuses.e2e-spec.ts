import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import * as grpc from '@grpc/grpc-js';
import { API_ERROR_CODES, type AgentServiceClient } from '@scn/proto';
import { DomainException, type ErrorKind } from '../../src/common/domain.exception';
import { DownloadsService } from '../../src/downloads/downloads.service';
import { AgentGrpcServer } from '../../src/grpc/agent-grpc.server';
import { EnrollmentService } from '../../src/enrollment/enrollment.service';
import { agentClient, enroll, TIER1_HARDWARE } from '../support/agent-client';
import { startTestApp, type TestApp } from '../support/test-app';

/**
 * Every error code of every domain exception answers its documented status through the
 * built server (this suite runs on dist/, see jest.config.js): the HTTP status through the real
 * global filter, and the gRPC status through the agent gRPC server's mapping.
 *
 * Complete by construction: the exception classes are found in the sources (any class that
 * extends DomainException or one of its subclasses), their codes are their `static kinds`
 * tables, and the expected statuses are the table "Error codes" of docs/api.md. A new class, a new
 * code, or a row of the documentation that no code has any more fails here.
 */

const SRC = path.join(__dirname, '../../src');
const API_DOC = path.join(__dirname, '../../../docs/api.md');

type ExceptionClass = (new (...args: unknown[]) => DomainException) & {
  readonly kinds?: Readonly<Record<string, ErrorKind>>;
  readonly domain: string;
};

/**
 * How the suite builds each class for a code: `new X(code)` unless listed here. A class whose
 * constructor takes something else gets an entry (the suite says so when one is missing).
 */
const CONSTRUCT: Record<string, (exception: ExceptionClass, code: string) => DomainException> = {
  SubscriptionsException: (Exception, code) => new Exception(code, `Refused (${code})`),
  RateLimitedException: (Exception) => new Exception(90),
};

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(full);
    return /(?<!\.spec|\.db-spec)\.ts$/.test(entry.name) ? [full] : [];
  });
}

/** Every class of the sources that extends DomainException, directly or not, with its file. */
function declaredExceptions(): { name: string; file: string }[] {
  const declared = sourceFiles(SRC).flatMap((file) =>
    [...readFileSync(file, 'utf8').matchAll(/\bclass\s+(\w+)\s+extends\s+(\w+)/g)].map(
      ([, name, base]) => ({ name: name!, base: base!, file }),
    ),
  );
  const exceptions = new Set(['DomainException']);
  for (let grew = true; grew;) {
    grew = false;
    for (const { name, base } of declared) {
      if (exceptions.has(base) && !exceptions.has(name)) grew = exceptions.add(name).size > 0;
    }
  }
  return declared.filter(({ name }) => name !== 'DomainException' && exceptions.has(name));
}

interface Documented {
  http: number;
  grpc: string;
}

/** The rows `| \`Class\` | \`code\` | status | \`GRPC_STATUS\` | ... |` of docs/api.md. */
function documentedStatuses(): Record<string, Documented> {
  const rows = readFileSync(API_DOC, 'utf8').matchAll(
    /^\|\s*`(\w+)`\s*\|\s*`(\w+)`\s*\|\s*(\d{3})\s*\|\s*`([A-Z_]+)`\s*\|/gm,
  );
  return Object.fromEntries(
    [...rows].map(([, exception, code, http, grpcStatus]) => [
      `${exception}.${code}`,
      { http: Number(http), grpc: grpcStatus! },
    ]),
  );
}

interface Case {
  key: string;
  exception: string;
  code: string;
  /** The body's code, `<domain>.<code>`. */
  bodyCode: string;
  kind: ErrorKind;
  make: () => DomainException;
}

/** One case per code of every exception class, built from the loaded (dist/) modules. */
function cases(): Case[] {
  const problems: string[] = [];
  const all: Case[] = [];
  for (const { name, file } of declaredExceptions()) {
    // Resolved through jest's resolver: the module tsc built from this file.
    const exported = (jest.requireActual(file) as Record<string, unknown>)[name];
    if (typeof exported !== 'function') {
      problems.push(`${name} (${path.relative(SRC, file)}) is not exported`);
      continue;
    }
    const exception = exported as ExceptionClass;
    if (!exception.kinds) {
      problems.push(`${name} has no static kinds table (code -> kind)`);
      continue;
    }
    const construct = CONSTRUCT[name] ?? ((e: ExceptionClass, code: string) => new e(code));
    for (const [code, kind] of Object.entries(exception.kinds)) {
      const make = () => construct(exception, code);
      const bodyCode = `${exception.domain}.${code}`;
      all.push({ key: `${name}.${code}`, exception: name, code, bodyCode, kind, make });
    }
  }
  expect(problems).toEqual([]);
  return all;
}

/** The exception itself, or what its construction threw (then its statuses cannot match). */
function built(make: () => DomainException): DomainException {
  try {
    return make();
  } catch (error) {
    return new DomainException('invalid', `construction failed: ${String(error)}`);
  }
}

const hardware = TIER1_HARDWARE;

let t: TestApp;
let client: AgentServiceClient;
beforeAll(async () => {
  t = await startTestApp();
  client = agentClient(t.app.get(AgentGrpcServer).port);
});
afterAll(async () => {
  client.close();
  await t.close();
});
afterEach(() => jest.restoreAllMocks());

describe('domain exceptions through the built server', () => {
  it('should run on the tsc build', () => {
    expect(require.resolve('../../src/wallet/wallet.exception')).toBe(
      path.join(__dirname, '../../dist/wallet/wallet.exception.js'),
    );
  });

  it('should build every code of every exception with its own code and kind', () => {
    const all = cases();
    expect(all.length).toBeGreaterThan(40);
    const made = all.map(({ key, make }) => {
      const exception = built(make);
      const { code } = exception as DomainException & { code?: string };
      return { key, name: exception.name, code, kind: exception.kind };
    });
    expect(made).toEqual(
      all.map(({ key, exception, code, kind }) => ({ key, name: exception, code, kind })),
    );
  });

  it('should list every code in @scn/proto (API_ERROR_CODES), the portal translates them', () => {
    const generic = API_ERROR_CODES.common.map((code) => `common.${code}`);
    const listed = Object.entries(API_ERROR_CODES).flatMap(([domain, codes]) =>
      codes.map((code) => `${domain}.${code}`),
    );
    const thrown = cases().map(({ bodyCode }) => bodyCode);
    expect(new Set(thrown).size).toBe(thrown.length);
    expect([...new Set([...thrown, ...generic])].sort()).toEqual([...listed].sort());
  });

  it('should document every code, and only codes that exist (docs/api.md "Error codes")', () => {
    const documented = documentedStatuses();
    expect(Object.keys(documented).sort()).toEqual(
      cases()
        .map(({ key }) => key)
        .sort(),
    );
  });

  it('should answer each code with its documented HTTP status, message, code and fields', async () => {
    // Each exception is built and thrown inside a real request of the built app (the service of
    // GET /checksums/server is made to throw it), so it goes through the real global filter.
    const downloads = t.app.get(DownloadsService);
    const documented = documentedStatuses();
    const answered: Record<string, { status: number; body: unknown; retryAfter?: string }> = {};
    const expected: typeof answered = {};
    for (const { key, bodyCode, make } of cases()) {
      jest.spyOn(downloads, 'serverChecksum').mockImplementationOnce(async () => {
        throw make();
      });
      const response = await t.http().get('/checksums/server');
      const retryAfter = response.headers['retry-after'] as string | undefined;
      answered[key] = { status: response.status, body: response.body, retryAfter };
      const exception = built(make);
      expected[key] = {
        status: documented[key]?.http ?? 0,
        body: {
          ...exception.details,
          success: false,
          message: exception.message,
          code: bodyCode,
        },
        retryAfter: exception.retryAfterSeconds?.toString(),
      };
    }
    expect(answered).toEqual(expected);
  });

  it('should answer each code with its documented gRPC status to an agent', async () => {
    // Enroll is the agent's call without credentials: the service it calls (async, as the real
    // one) fails with each one.
    const enrollment = t.app.get(EnrollmentService);
    const documented = documentedStatuses();
    const answered: Record<string, { status: string; details?: string }> = {};
    const expected: typeof answered = {};
    for (const { key, make } of cases()) {
      jest.spyOn(enrollment, 'enroll').mockImplementationOnce(async () => {
        throw make();
      });
      const error = await enroll(client, {
        enrollmentToken: 'A'.repeat(43),
        tier: 'TIER_2',
        agentVersion: '0.1.0',
        hardware,
      }).then(
        () => null,
        (failure: grpc.ServiceError) => failure,
      );
      answered[key] = error
        ? { status: grpc.status[error.code], details: error.details }
        : { status: 'OK' };
      expected[key] = {
        status: documented[key]?.grpc ?? 'undocumented',
        details: built(make).message,
      };
    }
    expect(answered).toEqual(expected);
  });
});
