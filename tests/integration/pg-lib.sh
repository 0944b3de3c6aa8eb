# SPDX-License-Identifier: MIT
# Sourced by the PostgreSQL tests: a throwaway server of Debian's postgresql package, in a
# temporary folder, listening only on a Unix socket there, run as an unprivileged user (the
# server refuses to run as root: under root it runs as `nobody`).  pg_start sets PGSOCK and
# pg_url DB prints a URL for a database; pg_stop (also on exit) stops the server and removes it.
PGBIN=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -1)
PGDIR=
pg_as() { # COMMAND...: as the server's user
	if [ "$(id -u)" = 0 ]; then
		setpriv --reuid=nobody --regid=nogroup --clear-groups -- "$@"
	else
		"$@"
	fi
}
pg_start() {
	if [ -z "$PGBIN" ] || [ ! -x "$PGBIN/initdb" ]; then
		echo "postgresql is not installed (apt-get install postgresql libpq-dev)"
		return 1
	fi
	PGDIR=$(mktemp -d /tmp/tnorm-pg-XXXXXX)
	chmod 755 "$PGDIR"
	[ "$(id -u)" = 0 ] && chown nobody:nogroup "$PGDIR"
	pg_as "$PGBIN/initdb" -D "$PGDIR/data" -U tnorm --auth=trust -E UTF8 --locale=C \
		>"$PGDIR/initdb.log" 2>&1 || { cat "$PGDIR/initdb.log"; return 1; }
	pg_as "$PGBIN/pg_ctl" -D "$PGDIR/data" -l "$PGDIR/server.log" -w -t 60 \
		-o "-k $PGDIR -c listen_addresses= -c fsync=off -c max_connections=64" start \
		>"$PGDIR/pg_ctl.log" 2>&1 || { cat "$PGDIR/pg_ctl.log" "$PGDIR/server.log"; return 1; }
	PGSOCK=$PGDIR
}
pg_createdb() { # NAME
	"$PGBIN/createdb" -h "$PGSOCK" -U tnorm "$1"
}
pg_psql() { # DB SQL
	"$PGBIN/psql" -h "$PGSOCK" -U tnorm -d "$1" -X -q -t -A -v ON_ERROR_STOP=1 -c "$2"
}
pg_url() { # DB
	echo "postgresql://tnorm@/$1?host=$PGSOCK"
}
pg_stop() {
	[ -n "$PGDIR" ] || return 0
	pg_as "$PGBIN/pg_ctl" -D "$PGDIR/data" -m immediate stop >/dev/null 2>&1
	rm -rf "$PGDIR"
	PGDIR=
}
