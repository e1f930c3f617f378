#!/usr/bin/env bash
# Builds the Dockerfile into an image and runs it, with no registry and no docker engine:
# podman/buildah with chroot isolation, and base images made on this machine.
#
#   debian:bookworm-slim   debootstrap --variant=minbase bookworm, from the Debian mirror
#                          apt is configured with, then `podman import`
#   swift:6.3-bookworm     that Debian base + the toolchain's run-time packages + the
#                          installed toolchain (/opt/swift, or SWIFT_TOOLCHAIN)
#
# Then it starts the image, checks /healthz and one action over HTTP from the host, runs
# the image's HEALTHCHECK, stops the container with SIGTERM and requires exit status 0,
# and starts it again on the same volume to see the session restored.
#
# Run as root on Debian (it apt-installs podman, buildah, debootstrap, runc if missing).
# Slow the first time (the toolchain image copies ~3 GB); base images are reused after.
# Environment: STOREHOST_CONTAINER_WORK (scratch folder, default /var/tmp/storehost-container),
# DEBIAN_MIRROR (default: from /etc/apt/sources*), SWIFT_TOOLCHAIN (default: from `swiftc`
# on PATH), REBUILD_BASES=1 (remake the base images), KEEP=1 (leave the container and volume).
set -euo pipefail
cd "$(dirname "$0")/.."
repo=$(pwd)

work=${STOREHOST_CONTAINER_WORK:-/var/tmp/storehost-container}
image=localhost/storehost:test
runtime_base=localhost/debian:bookworm-slim
builder_base=localhost/swift:6.3-bookworm
container=storehost-container-test
volume=storehost-container-test-data

step() { printf '\n== %s (%s)\n' "$*" "$(date -u +%H:%M:%S)"; }
die() { echo "container-test: $*" >&2; exit 1; }

[ "$(id -u)" = 0 ] || die "run as root (podman's chroot isolation and debootstrap need it)"

step "tools"
missing=()
for tool in podman buildah debootstrap runc curl; do
  command -v "$tool" > /dev/null || missing+=("$tool")
done
if [ ${#missing[@]} -gt 0 ]; then
  echo "installing ${missing[*]}"
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends \
    podman buildah debootstrap runc uidmap fuse-overlayfs curl > /dev/null
fi
podman --version
mkdir -p "$work"

# Workarounds for this kind of machine (a VM whose root lacks CAP_SYS_RESOURCE, with
# cgroup v1 plus an empty cgroup v2 hierarchy): crun refuses "hybrid" cgroups, so run
# containers with runc; podman's default RLIMIT_NOFILE (1048576) is above our hard limit
# and cannot be raised, so ask for the limit we have. Once nofile is given, podman also
# asks for an RLIMIT_NPROC that runc may not set here; 32768 (podman's usual) works.
nofile=$(ulimit -Hn)
run_flags=(--runtime runc --ulimit "nofile=$nofile:$nofile" --ulimit nproc=32768:32768 --network host)
build_flags=(--isolation chroot --network host --pull=never --format docker --ulimit "nofile=$nofile:$nofile")

# The Debian mirror apt already uses (the first non-security URI for bookworm).
mirror=${DEBIAN_MIRROR:-}
if [ -z "$mirror" ]; then
  mirror=$(cat /etc/apt/sources.list.d/*.sources 2>/dev/null \
    | awk '/^URIs:/ { for (i = 2; i <= NF; i++) if ($i !~ /security/) { print $i; exit } }')
fi
if [ -z "$mirror" ] && [ -f /etc/apt/sources.list ]; then
  mirror=$(awk '$1 == "deb" && $0 ~ /bookworm/ && $0 !~ /security/ { for (i = 2; i <= NF; i++) if ($i ~ /^https?:/) { print $i; exit } }' /etc/apt/sources.list)
fi
[ -n "$mirror" ] || die "no Debian mirror found in /etc/apt; set DEBIAN_MIRROR"

if [ "${REBUILD_BASES:-0}" = 1 ]; then
  podman rmi -f "$builder_base" "$runtime_base" > /dev/null 2>&1 || true
  rm -rf "$work/rootfs-debian"
fi

step "runtime base $runtime_base"
if podman image exists "$runtime_base"; then
  echo "exists; REBUILD_BASES=1 remakes it"
else
  rootfs="$work/rootfs-debian"
  if [ ! -x "$rootfs/usr/bin/apt-get" ]; then
    rm -rf "$rootfs"
    echo "debootstrap --variant=minbase bookworm from $mirror"
    debootstrap --variant=minbase bookworm "$rootfs" "$mirror" > "$work/debootstrap.log" 2>&1 \
      || { tail -20 "$work/debootstrap.log"; die "debootstrap failed"; }
  fi
  # Slim, like the official image: no package lists or caches, no manuals, docs (but
  # copyright files) or translations, now and in packages installed on top.
  cat > "$rootfs/etc/dpkg/dpkg.cfg.d/slim" << 'DPKG'
path-exclude /usr/share/doc/*
path-include /usr/share/doc/*/copyright
path-exclude /usr/share/man/*
path-exclude /usr/share/info/*
path-exclude /usr/share/locale/*
DPKG
  find "$rootfs/usr/share/doc" -mindepth 1 ! -name copyright ! -type d -delete
  rm -rf "$rootfs"/usr/share/man/* "$rootfs"/usr/share/info/* "$rootfs"/usr/share/locale/*
  rm -rf "$rootfs"/var/cache/apt/* "$rootfs"/var/lib/apt/lists/* "$rootfs"/var/cache/debconf/*-old
  tar -C "$rootfs" --numeric-owner -c . \
    | podman import --change 'CMD ["bash"]' --message "debootstrap minbase bookworm" - "$runtime_base"
fi

step "builder base $builder_base"
if podman image exists "$builder_base"; then
  echo "exists; REBUILD_BASES=1 remakes it"
else
  toolchain=${SWIFT_TOOLCHAIN:-}
  if [ -z "$toolchain" ]; then
    swiftc_path=$(readlink -f "$(command -v swiftc)") || die "no swiftc on PATH; set SWIFT_TOOLCHAIN"
    toolchain=$(dirname "$(dirname "$(dirname "$swiftc_path")")")   # <toolchain>/usr/bin/swiftc
  fi
  [ -x "$toolchain/usr/bin/swift-build" ] || die "$toolchain/usr/bin/swift-build is missing"
  echo "toolchain: $toolchain ($("$toolchain/usr/bin/swift" --version 2>&1 | head -1))"
  context="$work/swift-context"
  rm -rf "$context"
  mkdir -p "$context"
  # Hard links when on the same file system (instant, no space); a copy otherwise.
  cp -al "$toolchain" "$context/toolchain" 2> /dev/null || cp -a "$toolchain" "$context/toolchain"
  # Tools a build never runs: the debugger, language server, docs and formatter.
  for tool in lldb lldb-server lldb-dap sourcekit-lsp docc clangd swift-format; do
    rm -f "$context/toolchain/usr/bin/$tool"
  done
  cat > "$context/Containerfile" << 'CONTAINERFILE'
FROM localhost/debian:bookworm-slim
RUN apt-get update \
    && DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends \
        binutils libc6-dev libgcc-12-dev libstdc++-12-dev libcurl4 libxml2 libedit2 libsqlite3-0 \
        libncurses6 zlib1g-dev pkg-config tzdata ca-certificates \
    && rm -rf /var/lib/apt/lists/*
COPY toolchain /opt/swift
ENV PATH=/opt/swift/usr/bin:/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin
CMD ["swift", "--version"]
CONTAINERFILE
  podman build "${build_flags[@]}" -t "$builder_base" "$context"
  rm -rf "$context"
  podman run --rm "${run_flags[@]}" "$builder_base" swift --version
fi

step "podman build $image from $repo/Dockerfile"
build_start=$(date +%s)
podman build "${build_flags[@]}" -t "$image" -f Dockerfile .
echo "built in $(( $(date +%s) - build_start )) s"
podman image prune -f > /dev/null   # the untagged build stage (~3.7 GB)
size_bytes=$(podman image inspect --format '{{.Size}}' "$image")
size_mb=$(( size_bytes / 1000000 ))
echo "image size: $size_mb MB; runtime base alone: $(( $(podman image inspect --format '{{.Size}}' "$runtime_base") / 1000000 )) MB"
podman image inspect --format 'user={{.Config.User}} entrypoint={{.Config.Entrypoint}} healthcheck={{.Config.Healthcheck.Test}} volumes={{.Config.Volumes}}' "$image"

step "run"
podman rm -f "$container" > /dev/null 2>&1 || true
podman volume rm -f "$volume" > /dev/null 2>&1 || true
port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
base="http://127.0.0.1:$port"
cleanup() {
  if [ "${KEEP:-0}" != 1 ]; then
    podman rm -f "$container" > /dev/null 2>&1 || true
    podman volume rm -f "$volume" > /dev/null 2>&1 || true
  fi
}
trap cleanup EXIT

start_container() {
  podman run -d --name "$container" "${run_flags[@]}" -e STOREHOST_PORT="$port" \
    -v "$volume:/data" "$image" > /dev/null
  for _ in $(seq 1 100); do
    if curl -fsS "$base/healthz" > /dev/null 2>&1; then return 0; fi
    [ "$(podman inspect --format '{{.State.Running}}' "$container")" = true ] \
      || { podman logs "$container"; die "the container exited while starting"; }
    sleep 0.1
  done
  podman logs "$container"
  die "no answer on $base/healthz"
}

stop_container() {
  podman stop --time 30 "$container" > /dev/null   # STOPSIGNAL SIGTERM; SIGKILL only after 30 s
  status=$(podman inspect --format '{{.State.ExitCode}}' "$container")
  podman logs "$container" > "$work/container.log" 2>&1
  [ "$status" = 0 ] || { cat "$work/container.log"; die "exit status $status after SIGTERM, expected 0"; }
  grep -q '"message":"stopped"' "$work/container.log" || { cat "$work/container.log"; die "no 'stopped' log line"; }
  # Standard output's one start line aside, every line is a JSON log object.
  python3 - "$work/container.log" << 'PYTHON' || { cat "$work/container.log"; die "a log line is not JSON"; }
import json, sys
for line in open(sys.argv[1]):
    if not line.startswith("StoreHost serving "):
        entry = json.loads(line)
        assert {"time", "level", "message"} <= entry.keys(), line
PYTHON
  podman rm "$container" > /dev/null
}

start_container
health=$(curl -fsS "$base/healthz")
echo "GET /healthz -> $health"
[ "$health" = '{"status":"ok"}' ] || die "unexpected /healthz body"

podman healthcheck run "$container" && echo "HEALTHCHECK (storehost healthcheck inside the container): healthy" \
  || die "the image's HEALTHCHECK failed"
# The image has no shell or coreutils to ask from inside: PID 1 is read from the host's /proc.
pid1=$(podman inspect --format '{{.State.Pid}}' "$container")
pid1_uid=$(awk '/^Uid:/ { print $2 }' "/proc/$pid1/status")
pid1_name=$(cat "/proc/$pid1/comm")
echo "container user: $pid1_uid (PID 1: $pid1_name)"
[ "$pid1_uid" = 10001 ] && [ "$pid1_name" = storehost ] || die "PID 1 should be storehost as uid 10001"

created=$(curl -fsS -X POST -H 'Content-Type: application/json' --data '' "$base/api/sessions")
read -r session token < <(python3 -c 'import json, sys; s = json.load(sys.stdin); print(s["id"], s["token"])' <<< "$created")
echo "POST /api/sessions -> session $session"
answer=$(curl -fsS -X POST -H 'Content-Type: application/json' -H "Authorization: Bearer $token" \
  --data '{"counter":"incrementButtonTapped"}' "$base/api/sessions/$session/actions")
echo "POST {\"counter\":\"incrementButtonTapped\"} -> $answer"
version=$(python3 -c 'import json, sys; print(json.load(sys.stdin)["version"])' <<< "$answer")
[ "$version" = 1 ] || die "expected version 1, got $version"

step "stop with SIGTERM"
stop_container
echo "exit status 0; last log lines:"
tail -n 3 "$work/container.log"

step "restart on the same volume"
start_container
state=$(curl -fsS -H "Authorization: Bearer $token" "$base/api/sessions/$session")
restored=$(python3 -c 'import json, sys; s = json.load(sys.stdin); print(s["version"], s["state"]["counter"]["count"])' <<< "$state")
echo "GET /api/sessions/$session after restart -> version and count: $restored"
[ "$restored" = "1 1" ] || die "the session did not survive the restart"
stop_container

echo
echo "container test passed: image $image ($size_mb MB), /healthz ok, action -> version 1, SIGTERM -> exit 0, session restored after restart"
