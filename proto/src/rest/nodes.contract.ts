import { z } from 'zod';
import { requestBody } from './common.contract';

export const NODES_ROUTES = {
  enrollmentTokens: '/api/nodes/enrollment-tokens',
  servers: (uuid: string) => `/nodes/servers/${encodeURIComponent(uuid)}`,
  uploadServer: '/nodes/upload-server',
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
  /** Manually added servers: the operator's own link (without client credentials for agent nodes). */
  vlessString: z.string().nullable(),
});
export type NodeServer = z.infer<typeof nodeServerSchema>;

export const nodeServersResponseSchema = z.object({
  success: z.literal(true),
  servers: z.array(nodeServerSchema),
});
export type NodeServersResponse = z.infer<typeof nodeServersResponseSchema>;

export const UPLOAD_SERVER_MESSAGES = {
  vlessRequired: 'VLESS string is required',
  vlessInvalid: 'No valid VLESS connection string found',
  uploaded: 'Server uploaded successfully!',
  defaultName: 'My Network Server',
} as const;

/**
 * spec 02 §7 `nodes/upload-server`, without the fields the old browser used to set itself
 * (uptime, reliability): the control plane measures those.
 */
export const uploadServerRequestSchema = requestBody({
  uuid: z.string({ error: 'uuid is required' }).max(64),
  serverInfo: z.strictObject(
    {
      vlessString: z
        .string({ error: UPLOAD_SERVER_MESSAGES.vlessRequired })
        .trim()
        .min(1, UPLOAD_SERVER_MESSAGES.vlessRequired)
        .max(4096, UPLOAD_SERVER_MESSAGES.vlessInvalid),
      name: z.string().trim().max(100, 'Name must be at most 100 characters long').optional(),
    },
    {
      error: (issue: { code?: string; keys?: string[] }) =>
        issue.code === 'unrecognized_keys'
          ? `Unknown field: serverInfo.${(issue.keys ?? []).join(', serverInfo.')}`
          : 'serverInfo must be an object',
    },
  ),
});
export type UploadServerRequest = z.infer<typeof uploadServerRequestSchema>;
