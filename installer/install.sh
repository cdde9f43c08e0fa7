#!/usr/bin/env bash
# SCN node installer: installs scn-agent and the proxy core on a Debian/Ubuntu VPS, enrolls the
# node with its one-time token and starts it under systemd. Served by the control plane at
# /install.sh with its own address filled in:
#
#   curl -fsSL https://scn.example/install.sh | sudo bash -s -- --token TOKEN --tier tier2
#
# Running it again upgrades in place (the node keeps its identity). --dry-run prints the plan.
set -euo pipefail

SCN_URL="${SCN_URL:-__SCN_PUBLIC_URL__}"
GRPC_TARGET="${SCN_GRPC_TARGET:-__SCN_GRPC_TARGET__}"
PREFIX="${SCN_PREFIX:-}"
INSTALL_DIR="$PREFIX/opt/scn-agent"
CONFIG_DIR="$PREFIX/etc/scn-agent"
CONFIG_FILE="$CONFIG_DIR/config.json"
UNIT_FILE="$PREFIX/etc/systemd/system/scn-agent.service"
# --probe: a vantage point (scn-agent probe), beside or instead of a node.
PROBE_CONFIG_FILE="$CONFIG_DIR/probe.json"
PROBE_UNIT_FILE="$PREFIX/etc/systemd/system/scn-agent-probe.service"
# The systemd sandbox both units (node and vantage point) run in.
UNIT_SANDBOX="ProtectSystem=strict
ProtectHome=yes
PrivateTmp=yes
PrivateDevices=yes
ProtectKernelTunables=yes
ProtectKernelModules=yes
ProtectControlGroups=yes
RestrictSUIDSGID=yes
LockPersonality=yes
RestrictRealtime=yes
RestrictNamespaces=yes
SystemCallArchitectures=native"
# The pinned Xray release: its version and the SHA-256 of each architecture's archive, in this one
# place (the tests read them from here too). Fill each sum from the release's .dgst file, the line
# "SHA2-256= ..." of https://github.com/XTLS/Xray-core/releases/download/<version>/<asset>.dgst,
# when changing the version. The installer refuses to install an archive without a pinned
# 64-hex-digit sum: it never skips the verification. --xray-sha256 supplies a sum the operator
# took from that .dgst file themselves.
XRAY_VERSION="v26.3.27"
XRAY_SHA256_LINUX_64="23cd9af937744d97776ee35ecad4972cf4b2109d1e0fe6be9930467608f7c8ae"
XRAY_SHA256_LINUX_ARM64="4d30283ae614e3057f730f67cd088a42be6fdf91f8639d82cb69e48cde80413c"
XRAY_BASE_URL="${SCN_XRAY_BASE_URL:-https://github.com/XTLS/Xray-core/releases/download}"
XRAY_SHA256="${SCN_XRAY_SHA256:-}"

token=""
tier=""
core="xray"
public_host=""
public_port=""
reality_dest=""
reality_sni=""
certificate_file=""
key_file=""
domain=""
acme_email=""
dry_run=0
use_systemd=1
insecure=0
ca_file=""
country=""
location=""
probe=0
probe_name=""

usage() {
  cat <<USAGE
Usage: install.sh --token TOKEN --tier tier1|tier2|tier3|tier4 [options]
       install.sh --probe --token TOKEN [--name NAME] [--server URL] [--ca-file PATH]

The node serves VLESS + REALITY + xtls-rprx-vision with Xray, VLESS + TLS with v2ray (a
certificate from Let's Encrypt for this server's name, or its address; a pinned self-signed one
only while none can be had); choose another transport (ws, grpc) in the
dashboard's Node Configuration.

  --token TOKEN        one-time enrollment token from the SCN setup wizard (24 h, single use)
  --tier TIER          the VPS tier chosen in the wizard
  --core xray|v2ray|PATH
                       proxy core: Xray from its official release (default), Debian's v2ray
                       package, or the path of a core binary you provide
  --public-host HOST   address clients dial (default: this machine's public IP)
  --public-port PORT   VLESS port (default: 443 when nothing on this machine listens there, as
                       TLS on another port stands out to DPI; else a persistent port of this
                       machine's own, which the control plane picks and can regenerate)
  --reality-dest HOST:PORT
                       REALITY target site (default www.lovelive-anime.jp:443; see docs/operators.md)
  --reality-sni NAME   REALITY server name (default: the target's host)
  --certificate-file PATH, --key-file PATH
                       TLS (--core v2ray): a CA-issued certificate and key instead of the
                       self-signed one (copied to $CONFIG_DIR/tls-operator/)
  --domain NAME        TLS: this server's own name (its DNS points here): the certificate is
                       for it; default: the name SCN publishes for the node, else its address
  --acme-email ADDRESS contact for Let's Encrypt (expiry notices)
  --server URL         control plane (default $SCN_URL)
  --ca-file PATH       CA certificate of the control plane, when a private CA issued it
                       (copied to $CONFIG_DIR/ca.pem for the agent)
  --country CC         where this server is, for the market: ISO 3166-1 alpha-2 (DE, US, ...)
  --location TEXT      city or data centre for the market (one line, up to 100 characters)
  --xray-sha256 HEX    SHA-256 of the Xray archive, from its release's .dgst file, when this
                       installer has none pinned for it (SCN_XRAY_BASE_URL sets a mirror of
                       the release downloads, default $XRAY_BASE_URL)
  --probe              install a vantage point instead of a node: scn-agent only (no proxy
                       core, no open ports), enrolled with a vantage-point token from the
                       portal, run as scn-agent-probe.service (docs/operators.md)
  --name NAME          the vantage point's name in your list (--probe)
  --insecure           plaintext gRPC to a non-loopback control plane (testing only)
  --no-systemd         install and enroll, but do not write or start the systemd unit
  --dry-run            print what would be done, change nothing
  -h, --help           this help
USAGE
}

die() {
  echo "install.sh: $*" >&2
  exit 1
}

say() { echo "==> $*"; }

# The release archive of this machine's architecture (uname -m).
xray_asset() {
  case $1 in
    x86_64 | amd64) echo Xray-linux-64.zip ;;
    aarch64 | arm64) echo Xray-linux-arm64-v8a.zip ;;
    *) die "no Xray release for $1: use --core PATH" ;;
  esac
}

# The pinned SHA-256 of a release archive; refuses an archive with no pinned sum.
xray_pinned_sha256() {
  local sum
  case $1 in
    Xray-linux-64.zip) sum=$XRAY_SHA256_LINUX_64 ;;
    Xray-linux-arm64-v8a.zip) sum=$XRAY_SHA256_LINUX_ARM64 ;;
    *) sum="" ;;
  esac
  [[ $sum =~ ^[0-9a-f]{64}$ ]] || die "no SHA-256 is pinned for $1 of Xray $XRAY_VERSION in this installer ('${sum}'), so it will not install it: pass --xray-sha256 with the SHA2-256 line of $XRAY_BASE_URL/$XRAY_VERSION/$1.dgst, or use --core v2ray or --core PATH"
  echo "$sum"
}

# Downloads base_url/version/asset into workdir, checks its SHA-256 against sha256 BEFORE
# unpacking anything, then installs the xray binary from it as dest_dir/xray with one rename.
# On any failure it dies and leaves dest_dir as it was (the download stays in workdir, which the
# caller removes).
xray_install_verified() {
  local base_url=$1 version=$2 asset=$3 sha256=$4 dest_dir=$5 workdir=$6
  local url="$base_url/$version/$asset" archive="$workdir/$asset" actual
  [[ $sha256 =~ ^[0-9a-f]{64}$ ]] || die "refusing to install $asset: '${sha256}' is not a SHA-256 (64 lowercase hex digits)"
  curl -fsSL --retry 2 -o "$archive" "$url" || die "could not download Xray $version from $url"
  actual=$(sha256sum "$archive") || die "could not compute the SHA-256 of $archive"
  actual=${actual%% *}
  if [[ $actual != "$sha256" ]]; then
    rm -f "$archive"
    die "SHA-256 mismatch for $url: expected $sha256, got $actual; nothing was installed"
  fi
  command -v unzip >/dev/null 2>&1 || die "unzip is required to unpack $asset"
  rm -rf "$workdir/xray-unpacked"
  mkdir -p "$workdir/xray-unpacked"
  unzip -q -o "$archive" xray -d "$workdir/xray-unpacked" || die "$asset has no xray binary"
  [[ -f $workdir/xray-unpacked/xray && ! -L $workdir/xray-unpacked/xray ]] || die "$asset has no xray binary"
  install -d -m 0755 "$dest_dir"
  install -m 0755 "$workdir/xray-unpacked/xray" "$dest_dir/.xray.new"
  mv -f "$dest_dir/.xray.new" "$dest_dir/xray"
}

# Runs a command, or prints it under --dry-run.
run() {
  if ((dry_run)); then
    printf '[dry-run]'
    printf ' %q' "$@"
    printf '\n'
  else
    "$@"
  fi
}

# Writes stdin to a file with a mode, or prints the file under --dry-run.
write_file() {
  local path=$1 mode=$2 content
  content=$(cat)
  if ((dry_run)); then
    echo "[dry-run] write $path (mode $mode):"
    while IFS= read -r line; do echo "    $line"; done <<<"$content"
  else
    install -D -m "$mode" /dev/null "$path"
    printf '%s\n' "$content" >"$path"
  fi
}

# Sourced (by the tests, for the functions above): stop here.
if (return 0 2>/dev/null); then return 0; fi

while (($#)); do
  case $1 in
    --token) token=${2:-}; shift 2 ;;
    --tier) tier=${2:-}; shift 2 ;;
    --core) core=${2:-}; shift 2 ;;
    --public-host) public_host=${2:-}; shift 2 ;;
    --public-port) public_port=${2:-}; shift 2 ;;
    --reality-dest) reality_dest=${2:-}; shift 2 ;;
    --reality-sni) reality_sni=${2:-}; shift 2 ;;
    --certificate-file) certificate_file=${2:-}; shift 2 ;;
    --key-file) key_file=${2:-}; shift 2 ;;
    --domain) domain=${2:-}; shift 2 ;;
    --acme-email) acme_email=${2:-}; shift 2 ;;
    --server) SCN_URL=${2:-}; shift 2 ;;
    --ca-file) ca_file=${2:-}; shift 2 ;;
    --xray-sha256) XRAY_SHA256=${2:-}; shift 2 ;;
    --country) country=${2:-}; shift 2 ;;
    --location) location=${2:-}; shift 2 ;;
    --insecure) insecure=1; shift ;;
    --probe) probe=1; shift ;;
    --name) probe_name=${2:-}; shift 2 ;;
    --no-systemd) use_systemd=0; shift ;;
    --dry-run) dry_run=1; shift ;;
    -h | --help) usage; exit 0 ;;
    *) usage >&2; die "unknown option: $1" ;;
  esac
done

# --- checks -----------------------------------------------------------------------------------
((probe)) || [[ $tier =~ ^tier[1-4]$ ]] || die "--tier must be tier1, tier2, tier3 or tier4 (got '${tier}')"
if [[ -n $public_port ]] && { ! [[ $public_port =~ ^[0-9]+$ ]] || ((public_port < 1 || public_port > 65535)); }; then
  die "--public-port must be 1-65535"
fi
[[ -z $reality_dest || $reality_dest =~ ^[A-Za-z0-9.-]+:[0-9]{1,5}$ ]] || die "--reality-dest must be host:port, e.g. www.debian.org:443 (got '${reality_dest}')"
[[ -z $reality_sni || $reality_sni =~ ^[A-Za-z0-9.-]+$ ]] || die "--reality-sni must be a host name (got '${reality_sni}')"
[[ -z $domain || $domain =~ ^[A-Za-z0-9-]+(\.[A-Za-z0-9-]+)+$ ]] || die "--domain must be a host name, e.g. vpn.example.com (got '${domain}')"
[[ -z $acme_email || $acme_email =~ ^[^@[:space:]]+@[^@[:space:]]+$ ]] || die "--acme-email must be an e-mail address (got '${acme_email}')"
[[ -z $certificate_file && -z $key_file ]] || [[ -r $certificate_file && -r $key_file ]] || die "--certificate-file and --key-file must both be readable files"
[[ $SCN_URL =~ ^https?:// ]] || die "--server must be an http(s) URL (got '${SCN_URL}')"
[[ -z $ca_file || -r $ca_file ]] || die "--ca-file $ca_file is not a readable file"
# The agent checks country and location in full when it enrolls; catch the obvious early.
[[ -z $country || $country =~ ^[A-Za-z]{2}$ ]] || die "--country must be a two-letter ISO 3166-1 code such as DE or US (got '${country}')"
if ((probe)); then
  [[ -f $PROBE_CONFIG_FILE || $token =~ ^[A-Za-z0-9_-]{16,128}$ ]] || die "--token is required: copy the command from the portal's Vantage points"
elif [[ ! -f $CONFIG_FILE ]]; then
  [[ $token =~ ^[A-Za-z0-9_-]{43}$ ]] || die "--token is required: copy the command from the setup wizard"
fi
if ((!dry_run)) && [[ $(id -u) -ne 0 ]]; then
  die "must run as root: curl -fsSL $SCN_URL/install.sh | sudo bash -s -- --token ... --tier ..."
fi
os_id=""
if [[ -r $PREFIX/etc/os-release ]]; then
  # shellcheck disable=SC1091
  os_id=$(. "$PREFIX/etc/os-release" && echo "${ID:-} ${ID_LIKE:-}")
fi
[[ $os_id =~ (debian|ubuntu) ]] || die "only Debian and Ubuntu are supported (found: ${os_id:-unknown})"
# The Xray archive and its SHA-256, before anything changes: no pinned sum, no install.
if [[ $core == xray ]] && ((!probe)); then
  xray_archive=$(xray_asset "$(uname -m)")
  [[ -n $XRAY_SHA256 ]] || XRAY_SHA256=$(xray_pinned_sha256 "$xray_archive")
  [[ $XRAY_SHA256 =~ ^[0-9a-f]{64}$ ]] || die "--xray-sha256 must be 64 lowercase hex digits (got '${XRAY_SHA256}')"
fi

if ((probe)); then
  say "SCN vantage point installer: control plane $SCN_URL$( ((dry_run)) && echo ', dry run')"
else
  say "SCN node installer: control plane $SCN_URL, tier $tier, core $core$( ((dry_run)) && echo ', dry run')"
fi

# --- Node.js ----------------------------------------------------------------------------------
if ! command -v node >/dev/null 2>&1 || (($(node -p 'process.versions.node.split(".")[0]') < 18)); then
  say "Installing Node.js from the distribution"
  run apt-get update -qq
  run apt-get install -y -qq nodejs
fi

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# --- the proxy core (first: a refused download leaves the machine as it was) ------------------
# A vantage point has none: its tests are its own connections.
((probe)) && core=none
case $core in
  none) ;;
  xray)
    core_kind=xray
    core_binary="$INSTALL_DIR/core/xray"
    say "Installing Xray $XRAY_VERSION ($xray_archive, SHA-256 $XRAY_SHA256) from $XRAY_BASE_URL"
    command -v unzip >/dev/null 2>&1 || run apt-get install -y -qq unzip
    if ((dry_run)); then
      echo "[dry-run] download $XRAY_BASE_URL/$XRAY_VERSION/$xray_archive, check its SHA-256, install its xray as $core_binary"
    else
      xray_install_verified "$XRAY_BASE_URL" "$XRAY_VERSION" "$xray_archive" "$XRAY_SHA256" "$INSTALL_DIR/core" "$tmp"
    fi
    ;;
  v2ray)
    core_kind=v2ray
    core_binary=/usr/bin/v2ray
    say "Installing Debian's v2ray package"
    run apt-get install -y -qq v2ray
    ;;
  /*)
    [[ -x $core || $dry_run -eq 1 ]] || die "--core $core is not an executable file"
    core_binary=$core
    core_kind=xray
    [[ $(basename "$core") == v2ray* ]] && core_kind=v2ray
    ;;
  *) die "--core must be xray, v2ray or an absolute path (got '$core')" ;;
esac

# --- the agent ----------------------------------------------------------------------------------
say "Installing scn-agent into $INSTALL_DIR (upgrades in place)"
run curl -fsSL "$SCN_URL/downloads/scn-agent.tgz" -o "$tmp/scn-agent.tgz"
run install -d -m 0755 "$INSTALL_DIR"
run tar -xzf "$tmp/scn-agent.tgz" -C "$INSTALL_DIR"
# Flags and malloc settings: node-agent/src/node-flags.ts (a small idle daemon on a 1 GB VPS).
write_file "$PREFIX/usr/local/bin/scn-agent" 0755 <<WRAPPER
#!/bin/sh
exec env MALLOC_ARENA_MAX=1 MALLOC_TRIM_THRESHOLD_=65536 node --lite-mode --no-expose-wasm --max-semi-space-size=1 --single-threaded "$INSTALL_DIR/bin/scn-agent.js" "\$@"
WRAPPER

# --- a vantage point: enroll, its own unit, done (no ports to open, no core) -------------------
if ((probe)); then
  if [[ -n $ca_file ]]; then
    run install -d -m 0700 "$CONFIG_DIR"
    run install -m 0644 "$ca_file" "$CONFIG_DIR/ca.pem"
  fi
  if [[ -f $PROBE_CONFIG_FILE ]]; then
    say "Already enrolled ($PROBE_CONFIG_FILE kept): upgrade only"
  else
    say "Enrolling this vantage point"
    args=(probe enroll --control-plane "$GRPC_TARGET" --token "$token" --config "$PROBE_CONFIG_FILE")
    [[ -n $probe_name ]] && args+=(--name "$probe_name")
    ((insecure)) && args+=(--insecure)
    [[ -n $ca_file ]] && args+=(--ca-file "$CONFIG_DIR/ca.pem")
    run install -d -m 0700 "$CONFIG_DIR"
    run "$PREFIX/usr/local/bin/scn-agent" "${args[@]}"
  fi
  if ((use_systemd)); then
    say "Writing the systemd unit and starting scn-agent-probe"
    write_file "$PROBE_UNIT_FILE" 0644 <<UNIT
[Unit]
Description=SCN vantage point (tests from this network whether SCN servers can be reached)
Documentation=$SCN_URL/documentation
After=network-online.target
Wants=network-online.target

[Service]
ExecStart=/usr/local/bin/scn-agent probe run --config $PROBE_CONFIG_FILE
Restart=always
RestartSec=30
NoNewPrivileges=yes
CapabilityBoundingSet=
$UNIT_SANDBOX
ReadOnlyPaths=$CONFIG_DIR

[Install]
WantedBy=multi-user.target
UNIT
    run systemctl daemon-reload
    run systemctl enable scn-agent-probe
    run systemctl restart scn-agent-probe
    say "Done. Follow it with: journalctl -u scn-agent-probe -f"
  else
    say "Done (no systemd): start it with: scn-agent probe run --config $PROBE_CONFIG_FILE"
  fi
  exit 0
fi

# --- firewall ---------------------------------------------------------------------------------
# docs/product/screens.md#dashboards-and-information-pages: ports 22, 80, 443 (the VLESS default: docs/security.md#what-dpi-sees) and 10000-65535.
if command -v ufw >/dev/null 2>&1 && ufw status 2>/dev/null | grep -q 'Status: active'; then
  say "Opening ports in ufw"
  for rule in 22/tcp 80/tcp 443/tcp 10000:65535/tcp 10000:65535/udp; do run ufw allow "$rule"; done
elif command -v firewall-cmd >/dev/null 2>&1 && firewall-cmd --state >/dev/null 2>&1; then
  say "Opening ports in firewalld"
  for port in 22/tcp 80/tcp 443/tcp 10000-65535/tcp 10000-65535/udp; do run firewall-cmd --permanent --add-port="$port"; done
  run firewall-cmd --reload
fi

# --- enrollment -------------------------------------------------------------------------------
if [[ -n $ca_file ]]; then
  # The unit runs with ProtectHome: the agent must find the CA outside /root and /home. Copied on
  # upgrades too, so re-running with a new CA file rotates it.
  run install -d -m 0700 "$CONFIG_DIR"
  run install -m 0644 "$ca_file" "$CONFIG_DIR/ca.pem"
fi
if [[ -n $certificate_file ]]; then
  # Where the unit can read them (ProtectHome); the key stays root-only.
  run install -d -m 0700 "$CONFIG_DIR/tls-operator"
  run install -m 0644 "$certificate_file" "$CONFIG_DIR/tls-operator/certificate.pem"
  run install -m 0600 "$key_file" "$CONFIG_DIR/tls-operator/key.pem"
fi
if [[ -f $CONFIG_FILE ]]; then
  say "Already enrolled ($CONFIG_FILE kept): upgrade only"
else
  say "Enrolling this node"
  args=(enroll --server "$GRPC_TARGET" --token "$token" --tier "$tier" --config "$CONFIG_FILE"
    --core "$core_kind" --core-binary "$core_binary")
  # Given only when the operator chose it: otherwise enroll asks for 443 when it is free here,
  # else the control plane picks a port of this machine's own.
  [[ -n $public_port ]] && args+=(--public-port "$public_port")
  [[ -n $public_host ]] && args+=(--public-host "$public_host")
  [[ -n $reality_dest ]] && args+=(--reality-dest "$reality_dest")
  [[ -n $reality_sni ]] && args+=(--reality-sni "$reality_sni")
  [[ -n $certificate_file ]] && args+=(--security tls --certificate-file "$CONFIG_DIR/tls-operator/certificate.pem" --key-file "$CONFIG_DIR/tls-operator/key.pem")
  [[ -n $domain ]] && args+=(--domain "$domain")
  [[ -n $acme_email ]] && args+=(--acme-email "$acme_email")
  [[ -n $country ]] && args+=(--country "$country")
  [[ -n $location ]] && args+=(--location "$location")
  ((insecure)) && args+=(--insecure)
  [[ -n $ca_file ]] && args+=(--ca-file "$CONFIG_DIR/ca.pem")
  run install -d -m 0700 "$CONFIG_DIR"
  run "$PREFIX/usr/local/bin/scn-agent" "${args[@]}"
fi

# --- systemd ----------------------------------------------------------------------------------
if ((use_systemd)); then
  say "Writing the systemd unit and starting scn-agent"
  write_file "$UNIT_FILE" 0644 <<UNIT
[Unit]
Description=SCN node agent (proxy core supervisor and reporter)
Documentation=$SCN_URL/documentation
After=network-online.target
Wants=network-online.target

[Service]
ExecStart=/usr/local/bin/scn-agent run --config $CONFIG_FILE
Restart=always
RestartSec=5
# The VLESS port may be below 1024; nothing else is privileged. The TLS certificate and key the
# agent made (or the operator's) live in $CONFIG_DIR, which the core reads.
AmbientCapabilities=CAP_NET_BIND_SERVICE
CapabilityBoundingSet=CAP_NET_BIND_SERVICE
NoNewPrivileges=yes
DynamicUser=no
$UNIT_SANDBOX
StateDirectory=scn-agent
ReadWritePaths=$CONFIG_DIR
LimitNOFILE=1048576

[Install]
WantedBy=multi-user.target
UNIT
  run systemctl daemon-reload
  run systemctl enable scn-agent
  run systemctl restart scn-agent
  say "Done. The node appears on your dashboard within 2-3 minutes. Check it with: scn-agent status"
else
  say "Done (no systemd): start it with: scn-agent run --config $CONFIG_FILE"
fi
