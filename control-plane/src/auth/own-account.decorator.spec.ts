import {
  Body,
  type CanActivate,
  Controller,
  type ExecutionContext,
  Get,
  type INestApplication,
  Module,
  Post,
  UseGuards,
} from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { AUTH_MESSAGES, requestBody } from '@scn/proto';
import { createZodDto } from 'nestjs-zod';
import request from 'supertest';
import { z } from 'zod';
import { ApiExceptionFilter } from '../common/api-exception.filter';
import { DomainException } from '../common/domain.exception';
import { UuidParam } from '../common/uuid-param';
import { ContractValidationPipe } from '../common/validation';
import type { ActiveSession } from './auth.repository';
import { isOwnAccount, OwnAccount, OwnsAccountGuard } from './own-account.decorator';

const OWNER = '0b1e2f3a-4c5d-4e6f-8a9b-0c1d2e3f4a5b';
const OTHER = '9f8e7d6c-5b4a-4398-8776-655443322110';
const ITEM = 'c0ffee00-1234-4abc-9def-0123456789ab';

class NameDto extends createZodDto(
  requestBody({ name: z.string({ error: 'name is required' }) }),
) {}

const notFound = () => new DomainException('not_found', 'No such item');

function sessionFor(uuid: string): ActiveSession {
  return { account: { uuid } } as ActiveSession;
}

/** Stands in for SessionGuard: the header `x-account` is the session's account. */
class FakeSessionGuard implements CanActivate {
  canActivate(context: ExecutionContext): boolean {
    const req = context.switchToHttp().getRequest<{
      headers: Record<string, string | undefined>;
      authSession?: ActiveSession;
    }>();
    const account = req.headers['x-account'];
    if (account) req.authSession = sessionFor(account);
    return true;
  }
}

@Controller()
@UseGuards(FakeSessionGuard)
class ProbeController {
  @Get('accounts/:uuid')
  account(@OwnAccount() uuid: string): { uuid: string } {
    return { uuid };
  }

  @Post('accounts/:uuid/items/:id')
  rename(
    @OwnAccount() uuid: string,
    @UuidParam('id', notFound) id: string,
    @Body() body: NameDto,
  ): { uuid: string; id: string; name: string } {
    return { uuid, id, name: body.name };
  }

  /** Body first, then the account: the check still comes first. */
  @Post('accounts/:uuid/notes')
  note(@Body() body: NameDto, @OwnAccount() uuid: string): { uuid: string; name: string } {
    return { uuid, name: body.name };
  }

  @Get('items/:id')
  item(@UuidParam('id', notFound) id: string): { id: string } {
    return { id };
  }

  /** A route without `:id`: the parameter is missing. */
  @Get('items')
  noItem(@UuidParam('id', notFound) id: string): { id: string } {
    return { id };
  }

  @Post('accounts/:uuid/legacy')
  @UseGuards(OwnsAccountGuard)
  legacy(): { ok: true } {
    return { ok: true };
  }
}

@Module({ controllers: [ProbeController] })
class ProbeModule {}

let app: INestApplication;

beforeAll(async () => {
  app = await NestFactory.create(ProbeModule, { logger: false });
  app.useGlobalFilters(new ApiExceptionFilter());
  app.useGlobalPipes(new ContractValidationPipe());
  await app.init();
});
afterAll(() => app?.close());

const http = () => request(app.getHttpServer());

describe('OwnAccount', () => {
  it("should give the handler the canonical uuid when the path names the session's account in any case", async () => {
    for (const path of [OWNER, OWNER.toUpperCase(), '0B1e2F3a-4c5D-4e6F-8a9B-0c1D2e3F4a5B']) {
      const res = await http().get(`/accounts/${path}`).set('x-account', OWNER).expect(200);
      expect(res.body).toEqual({ uuid: OWNER });
    }
  });

  it('should answer 403 access_denied when the path names another account or no account', async () => {
    for (const path of [OTHER, 'not-a-uuid', `${OWNER}0`, '------------------------------------']) {
      const res = await http().get(`/accounts/${path}`).set('x-account', OWNER).expect(403);
      expect(res.body).toEqual({
        success: false,
        message: AUTH_MESSAGES.accessDenied,
        code: 'auth.access_denied',
      });
    }
  });

  it('should answer 401 when no session was authenticated', async () => {
    const res = await http().get(`/accounts/${OWNER}`).expect(401);
    expect(res.body).toEqual({
      success: false,
      message: AUTH_MESSAGES.notLoggedIn,
      code: 'auth.not_logged_in',
    });
  });

  it('should refuse another account with 403 before the body or the id is validated', async () => {
    await http().post(`/accounts/${OTHER}/items/nope`).set('x-account', OWNER).send({}).expect(403);
    await http().post(`/accounts/${OTHER}/notes`).set('x-account', OWNER).send({}).expect(403);
  });
});

describe('UuidParam', () => {
  it('should give the handler the lower-case id when the path has it in any case', async () => {
    const res = await http().get(`/items/${ITEM.toUpperCase()}`).expect(200);
    expect(res.body).toEqual({ id: ITEM });
  });

  it("should answer the endpoint's own error when the id is not a UUID or is missing", async () => {
    for (const path of ['/items/nope', `/items/${ITEM}x`, '/items/%20', '/items']) {
      const res = await http().get(path).expect(404);
      expect(res.body).toEqual({
        success: false,
        message: 'No such item',
        code: 'common.not_found',
      });
    }
  });

  it("should answer the body's 400 before the id's error when both are wrong", async () => {
    const res = await http()
      .post(`/accounts/${OWNER}/items/nope`)
      .set('x-account', OWNER)
      .send({})
      .expect(400);
    expect(res.body).toEqual({
      success: false,
      message: 'name is required',
      code: 'common.invalid',
      field: 'name',
    });
    await http()
      .post(`/accounts/${OWNER}/items/nope`)
      .set('x-account', OWNER)
      .send({ name: 'x' })
      .expect(404);
  });

  it('should pass both canonical uuids with the body when all is well', async () => {
    const res = await http()
      .post(`/accounts/${OWNER.toUpperCase()}/items/${ITEM.toUpperCase()}`)
      .set('x-account', OWNER)
      .send({ name: 'x' })
      .expect(201);
    expect(res.body).toEqual({ uuid: OWNER, id: ITEM, name: 'x' });
  });
});

describe('OwnsAccountGuard', () => {
  it("should let the session's own account through and refuse any other with 403", async () => {
    await http()
      .post(`/accounts/${OWNER.toUpperCase()}/legacy`)
      .set('x-account', OWNER)
      .expect(201);
    await http().post(`/accounts/${OTHER}/legacy`).set('x-account', OWNER).expect(403);
    await http().post(`/accounts/${OWNER}/legacy`).expect(401);
  });
});

describe('isOwnAccount', () => {
  it("should hold only for the session's account uuid, in any case", () => {
    const session = sessionFor(OWNER);
    expect(isOwnAccount(session, OWNER.toUpperCase())).toBe(true);
    expect(isOwnAccount(session, OTHER)).toBe(false);
    expect(isOwnAccount(session, ` ${OWNER}`)).toBe(false);
    expect(isOwnAccount(session, undefined)).toBe(false);
  });
});
