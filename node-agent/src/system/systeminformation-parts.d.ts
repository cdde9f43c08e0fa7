// The four systeminformation modules the agent reads, imported one by one: its index loads
// every module (docker, wifi, bluetooth, printers, ...), about 2.3 MB of RSS on a small VPS,
// and the bundle inlines only what is imported. Types come from the package's own index.d.ts.
declare module 'systeminformation/lib/osinfo' {
  export { osInfo } from 'systeminformation';
}
declare module 'systeminformation/lib/cpu' {
  export { cpu } from 'systeminformation';
}
declare module 'systeminformation/lib/memory' {
  export { mem } from 'systeminformation';
}
declare module 'systeminformation/lib/filesystem' {
  export { fsSize } from 'systeminformation';
}
