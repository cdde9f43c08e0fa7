import { z } from 'zod';
import { requestBody } from './common.contract';

export const NODES_ROUTES = {
  enrollmentTokens: '/api/nodes/enrollment-tokens',
  servers: (uuid: string) => `/nodes/servers/${encodeURIComponent(uuid)}`,
  server: (uuid: string, serverId: string) =>
    `/nodes/server/${encodeURIComponent(uuid)}/${encodeURIComponent(serverId)}`,
} as const;

export const NODES_MESSAGES = {
  tierRequired: 'Please select a VPS tier',
} as const;

/** spec 02 §5: setup script generation requires a chosen tier. */
export const enrollmentTokenRequestSchema = requestBody({
  tier: z.enum(['tier1', 'tier2', 'tier3', 'tier4'], {
    error: (issue: { input?: unknown }) =>
      issue.input === undefined
        ? NODES_MESSAGES.tierRequired
        : 'tier must be tier1, tier2, tier3 or tier4',
  }),
});
export type EnrollmentTokenRequest = z.infer<typeof enrollmentTokenRequestSchema>;

export const enrollmentTokenResponseSchema = z.object({
  success: z.literal(true),
  token: z.string(),
  tier: z.string(),
  expiresAt: z.string(),
  installCommand: z.string(),
});
export type EnrollmentTokenResponse = z.infer<typeof enrollmentTokenResponseSchema>;

/** spec 02 §3 "Server (node dashboard)", computed by the control plane. */
export const nodeServerSchema = z.object({
  id: z.string(),
  name: z.string(),
  source: z.enum(['agent', 'manual']),
  tier: z.string().nullable(),
  host: z.string().nullable(),
  port: z.number().nullable(),
  uptime: z.number(),
  connections: z.number(),
  reliability: z.number(),
  available: z.boolean(),
  hidden: z.boolean(),
  banned: z.boolean(),
  ping: z.number().nullable(),
  coreState: z.string().nullable(),
  lastHealthUpdate: z.string().nullable(),
  created: z.string(),
});
export type NodeServer = z.infer<typeof nodeServerSchema>;

export const nodeServersResponseSchema = z.object({
  success: z.literal(true),
  servers: z.array(nodeServerSchema),
});
export type NodeServersResponse = z.infer<typeof nodeServersResponseSchema>;
