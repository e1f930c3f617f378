# StoreHost demo server image. See Sources/StoreHost/StoreHost.docc/Container.md.
#
#   podman build --format docker -t storehost .      (or: docker build -t storehost .)
#   podman run -p 8080:8080 -v storehost-data:/data storehost
#
# The builder and the runtime must be the same Debian release: the binary links the
# system's glibc, libssl3, libsqlite3 and libpq5 dynamically, so the default builder is the
# official image's bookworm variant, matching debian:bookworm-slim below, from which the
# runtime takes those libraries and nothing else (the image is FROM scratch).
ARG SWIFT_IMAGE=swift:6.3-bookworm
ARG RUNTIME_IMAGE=debian:bookworm-slim

# --- build: the release binary with the Swift standard library and Foundation linked in
# (-static-swift-stdlib), stripped; its symbols and DWARF stay in /staging/storehost.debug
# of this stage (`--target build`) for symbolicating a crash report.
FROM ${SWIFT_IMAGE} AS build
# DL3008: no version pins; the -dev packages follow the base image's Debian release.
# hadolint ignore=DL3008
RUN apt-get update \
    && DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends \
        libssl-dev libsqlite3-dev libpq-dev pkg-config \
    && apt-get clean \
    && rm -rf /var/lib/apt/lists/*
WORKDIR /src
COPY . .
# Public/ is optional in the context; the runtime stage copies whatever the build stage has.
RUN swift build -c release --product storehost --static-swift-stdlib \
    && mkdir -p /staging/Public \
    && cp "$(swift build -c release --show-bin-path)/storehost" /staging/storehost \
    && objcopy --only-keep-debug /staging/storehost /staging/storehost.debug \
    && strip --strip-all /staging/storehost \
    && if [ -d Public ]; then cp -R Public/. /staging/Public/; fi

# --- rootfs: the runtime's whole file system, and nothing else: the binary, the shared
# libraries `ldd storehost` lists (with the dynamic loader), the CA certificates, the user,
# and /data. No shell, no package manager, no coreutils: a distroless-style image.
FROM ${RUNTIME_IMAGE} AS rootfs
SHELL ["/bin/bash", "-o", "pipefail", "-c"]
# DL3008: no version pins, so a rebuild picks up Debian's security updates.
# hadolint ignore=DL3008
RUN apt-get update \
    && DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends \
        ca-certificates libssl3 libsqlite3-0 libpq5 libstdc++6 \
    && apt-get clean \
    && rm -rf /var/lib/apt/lists/*
COPY --from=build /staging/storehost /rootfs/usr/local/bin/storehost
COPY --from=build /staging/Public /rootfs/app/Public
RUN ldd /rootfs/usr/local/bin/storehost \
        | awk '$2 == "=>" && $3 ~ /^\// { print $3 } $1 ~ /^\// { print $1 }' \
        | sort -u \
        | xargs -I{} cp --parents -L {} /rootfs/ \
    && mkdir -p /rootfs/etc/ssl/certs /rootfs/data /rootfs/tmp \
    && cp /etc/ssl/certs/ca-certificates.crt /rootfs/etc/ssl/certs/ \
    && printf 'root:x:0:0:root:/root:/usr/sbin/nologin\nstorehost:x:10001:10001::/data:/usr/sbin/nologin\n' > /rootfs/etc/passwd \
    && printf 'root:x:0:\nstorehost:x:10001:\n' > /rootfs/etc/group \
    && printf 'passwd: files\ngroup: files\nhosts: files dns\n' > /rootfs/etc/nsswitch.conf \
    && chown 10001:10001 /rootfs/data \
    && chmod 1777 /rootfs/tmp \
    && interpreter=$(ldd /rootfs/usr/local/bin/storehost | awk '$1 ~ /^\// { print $1 }') \
    && chroot /rootfs "$interpreter" --list /usr/local/bin/storehost > /dev/null

# --- runtime: that file system alone.
FROM scratch
COPY --from=rootfs /rootfs/ /
WORKDIR /app
ENV STOREHOST_HOST=0.0.0.0 \
    STOREHOST_PORT=8080 \
    STOREHOST_DATA=/data \
    STOREHOST_PUBLIC=/app/Public
VOLUME ["/data"]
USER 10001:10001
EXPOSE 8080
# Liveness: the binary checks itself (GET /healthz on STOREHOST_PORT), so the image needs no
# curl. Readiness (GET /readyz, or `storehost healthcheck --ready`) is the orchestrator's probe.
HEALTHCHECK --interval=15s --timeout=5s --start-period=10s --retries=3 \
    CMD ["storehost", "healthcheck"]
# storehost is PID 1 and handles SIGTERM itself: it answers 503 on /healthz, drains
# connections for up to STOREHOST_SHUTDOWN_TIMEOUT seconds, saves sessions, exits 0.
STOPSIGNAL SIGTERM
ENTRYPOINT ["storehost"]
