import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Controller, Get, Header, Inject, NotFoundException, Res } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import type { Response } from 'express';
import { type AppConfig, REPO_ROOT } from '../config/app-config';
import { AGENT_BUNDLE_FILE, APP_CONFIG } from '../config/config.module';

export const INSTALLER_PATH = join(REPO_ROOT, 'installer', 'install.sh');

/** Where agents reach the gRPC server: the PUBLIC_URL host on GRPC_PORT. */
export function grpcTarget(config: AppConfig, boundPort?: number): string {
  const host = new URL(config.publicUrl).hostname;
  const port = config.grpcPort === 0 ? boundPort : config.grpcPort;
  return `${host.includes(':') ? `[${host}]` : host}:${port ?? 5051}`;
}

/** The one-line installer and the agent bundle it downloads. */
@ApiTags('nodes')
@Controller()
export class InstallerController {
  private readonly script: string | null;

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Inject(AGENT_BUNDLE_FILE) private readonly bundleFile: string,
  ) {
    this.script = existsSync(INSTALLER_PATH) ? readFileSync(INSTALLER_PATH, 'utf8') : null;
  }

  @Get('install.sh')
  @Header('Content-Type', 'text/x-shellscript; charset=utf-8')
  @Header('Cache-Control', 'no-cache')
  @ApiOperation({ summary: 'The node installer, with this control plane’s addresses filled in' })
  installScript(): string {
    if (!this.script) throw new NotFoundException();
    return this.script
      .replace('__SCN_PUBLIC_URL__', this.config.publicUrl)
      .replace('__SCN_GRPC_TARGET__', grpcTarget(this.config));
  }

  @Get('downloads/scn-agent.tgz')
  @ApiOperation({ summary: 'The scn-agent bundle (made by node-agent’s build)' })
  agentBundle(@Res() response: Response): void {
    if (!existsSync(this.bundleFile)) throw new NotFoundException();
    response.setHeader('Cache-Control', 'no-cache');
    response.sendFile(this.bundleFile);
  }
}
