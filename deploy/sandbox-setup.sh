#!/bin/sh
# Prepares a host to run submitted bots in the sandbox (arena/sandbox).
# Idempotent: safe to run on every `make` set-up and CI job. Must run as root.
set -eu

BOT_USER="${PINOCHLE_BOT_USER:-pinochle-bot}"
CGROUP_PARENT="${PINOCHLE_CGROUP_PARENT:-pinochle-arena}"
CGROUP_ROOT="${PINOCHLE_CGROUP_ROOT:-/sys/fs/cgroup}"

if [ "$(id -u)" -ne 0 ]; then
    echo "sandbox-setup: must run as root" >&2
    exit 1
fi

if ! command -v bwrap >/dev/null 2>&1; then
    echo "sandbox-setup: installing bubblewrap"
    apt-get update -qq
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq bubblewrap
fi

# prlimit (util-linux) starts every bot with its rlimits; it is essential on Debian
# but may be missing from slim images.
if ! command -v prlimit >/dev/null 2>&1; then
    echo "sandbox-setup: installing util-linux (prlimit)"
    apt-get update -qq
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq util-linux
fi

if ! id -u "$BOT_USER" >/dev/null 2>&1; then
    echo "sandbox-setup: creating system user $BOT_USER"
    nologin="$(command -v nologin || echo /usr/sbin/nologin)"
    useradd --system --no-create-home --home-dir /nonexistent \
        --shell "$nologin" --user-group "$BOT_USER"
fi

# One parent cgroup per controller; the sandbox creates a child per bot process under
# it. Only cgroup v1 controllers mounted at $CGROUP_ROOT/<controller> are prepared: on
# hosts without them the sandbox records a note and relies on rlimits alone.
for controller in pids memory cpu; do
    if [ -f "$CGROUP_ROOT/$controller/cgroup.procs" ]; then
        mkdir -p "$CGROUP_ROOT/$controller/$CGROUP_PARENT"
        echo "sandbox-setup: cgroup $controller/$CGROUP_PARENT ready"
    else
        echo "sandbox-setup: cgroup v1 controller '$controller' not mounted; skipped"
    fi
done

if [ -f "$CGROUP_ROOT/memory/$CGROUP_PARENT/memory.use_hierarchy" ]; then
    # Child limits must count toward the parent so a runaway bot is charged where seen.
    echo 1 > "$CGROUP_ROOT/memory/$CGROUP_PARENT/memory.use_hierarchy" 2>/dev/null || true
fi

# bubblewrap needs unprivileged user namespaces (on by default in Debian 12); say so
# plainly here rather than through a failing bot later. Fatal in CI only: elsewhere the
# sandbox tests skip and say why.
if runuser -u "$BOT_USER" -- bwrap --unshare-all --unshare-user --ro-bind / / /bin/true; then
    echo "sandbox-setup: $BOT_USER can start bubblewrap"
else
    echo "sandbox-setup: $BOT_USER cannot start bubblewrap; are unprivileged user" \
        "namespaces disabled (sysctl kernel.unprivileged_userns_clone, user.max_user_namespaces)?" >&2
    if [ "${CI:-}" = "true" ]; then
        exit 1
    fi
fi

echo "sandbox-setup: done"
