/** The feed's formats, one file each; the servers they are written from in feed-servers.ts. */
export {
  AUTO_GROUP,
  carries,
  DEFAULT_RENDER_OPTIONS,
  type FeedServer,
  feedServers,
  PROBE_URL,
  REMOTE_DNS,
  type RenderOptions,
  SELECT_GROUP,
  v2rayCarries,
} from './feed-servers';
export { CLASH_FAKEIP_RANGE, renderClash } from './render-clash';
export { renderSingBox, SING_BOX_FAKEIP } from './render-singbox';
export { renderXray } from './render-xray';
