"""Settings for Pinochle Arena, read from the environment only.

Variables (see README.md, "Configuration"):

- ``DEBUG`` (default false). ``SECRET_KEY`` is required when DEBUG is off.
- ``ALLOWED_HOSTS``: comma-separated (default ``127.0.0.1,localhost``).
- ``DATABASE_URL``: ``postgres://...`` or ``sqlite:///path`` (default: a SQLite file in var/).
- ``CELERY_BROKER_URL`` or ``REDIS_URL``: the broker. Unset, tasks execute in-process
  through the same task functions (the embedded mode used by ``make demo``).
- ``UPLOAD_RATE``: uploads of bot versions allowed per player (default ``30/hour``).
"""

from __future__ import annotations

from pathlib import Path

import dj_database_url
import django_stubs_ext
from django.core.exceptions import ImproperlyConfigured

from arena.sandbox import ConfigError, SandboxConfig
from config.env import (
    env_bool,
    env_choice,
    env_int,
    env_list,
    env_prefixed,
    env_rate,
    env_str,
    env_url,
)

# Django's generic classes take their type arguments at run time too (admin.ModelAdmin[Bot]).
django_stubs_ext.monkeypatch()

BASE_DIR = Path(__file__).resolve().parents[1]
VAR_DIR = Path(env_str("ARENA_VAR_DIR") or BASE_DIR / "var")

DEBUG = env_bool("DEBUG", False)
SECRET_KEY = env_str("SECRET_KEY") or ""
if not SECRET_KEY:
    if not DEBUG:
        raise ImproperlyConfigured("SECRET_KEY is required when DEBUG is off")
    # Only ever used with DEBUG on, on a developer's machine.
    SECRET_KEY = "insecure-development-key-for-debug-mode-only"

ALLOWED_HOSTS = env_list("ALLOWED_HOSTS", ["127.0.0.1", "localhost"])
CSRF_TRUSTED_ORIGINS = env_list("CSRF_TRUSTED_ORIGINS", [])

INSTALLED_APPS = [
    # First, so that its runserver (what `make demo` and the tests' live servers start)
    # serves the ASGI application: the pages and the lobby's WebSockets (config/asgi.py).
    "daphne",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "django.contrib.staticfiles",
    "rest_framework",
    "rest_framework.authtoken",
    "django_filters",
    "drf_spectacular",
    "drf_spectacular_sidecar",
    "django_celery_beat",
    # WebSockets: the lobby's live tables (lobby/consumers.py), over CHANNEL_LAYERS below.
    "channels",
    "arena",
    "leagues",
    "tournaments",
    "tables",
    "robot_events",
    "lobby",
    "home",
    # htmx requests (request.htmx) for pages that refresh a part of themselves.
    "django_htmx",
    # After the site's apps, so that the account pages (registration/*.html, arena's) are
    # drawn in the site's frame rather than with the admin's templates of the same names.
    "django.contrib.admin",
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    # Before anything reads the query or the body (see arena/http/middleware.py).
    "arena.http.middleware.NulCharacterMiddleware",
    "arena.http.middleware.RequestBodyLimitMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "django_htmx.middleware.HtmxMiddleware",
    # A page's refused request: the site's refusal page (arena/errors.py).
    "arena.http.middleware.RefusalPageMiddleware",
]

ROOT_URLCONF = "config.urls"
LOGIN_URL = "login"
LOGIN_REDIRECT_URL = "home:index"
LOGOUT_REDIRECT_URL = "home:index"
WSGI_APPLICATION = "config.wsgi.application"
ASGI_APPLICATION = "config.asgi.application"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
                "arena.context_processors.games",
                "arena.context_processors.unread_notices",
            ],
        },
    },
]

_database_url = env_url("DATABASE_URL", schemes=("postgres", "postgresql", "pgsql", "sqlite"))
if _database_url is None:
    _database_url = f"sqlite:///{VAR_DIR / 'arena.sqlite3'}"
DATABASES = {
    "default": dj_database_url.parse(
        _database_url, conn_max_age=env_int("DATABASE_CONN_MAX_AGE", 60, minimum=0)
    )
}
if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":
    # The embedded mode's web server, worker and beat share the file: WAL lets readers go on
    # while one writes, a writer waits for the lock instead of failing at once, and a
    # transaction takes the write lock when it begins rather than deadlocking on upgrade.
    DATABASES["default"]["OPTIONS"] = {
        "timeout": 30,
        "init_command": "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL;",
        "transaction_mode": "IMMEDIATE",
    }
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]

LANGUAGE_CODE = "en-us"
TIME_ZONE = "UTC"
USE_I18N = True
USE_TZ = True

STATIC_URL = "static/"
STATIC_ROOT = VAR_DIR / "static"
# Without a collected STATIC_ROOT (make demo, tests) WhiteNoise serves from the apps.
WHITENOISE_USE_FINDERS = True

# --- broker, cache, tasks ----------------------------------------------------------------

_BROKER_SCHEMES = ("redis", "rediss", "amqp", "amqps", "memory", "filesystem")
REDIS_URL = env_url("REDIS_URL", schemes=("redis", "rediss"))
_broker_url = env_url("CELERY_BROKER_URL", schemes=_BROKER_SCHEMES) or REDIS_URL
# Embedded mode: with no broker configured, every task runs in the calling process through
# the same task function, so `make demo` needs neither Redis nor a worker.
CELERY_TASK_ALWAYS_EAGER = _broker_url is None
# Nothing is ever sent then; an in-memory transport keeps Celery from looking for a server.
CELERY_BROKER_URL = _broker_url or "memory://localhost/"
CELERY_TASK_EAGER_PROPAGATES = True
CELERY_TASK_SERIALIZER = "json"
CELERY_ACCEPT_CONTENT = ["json"]
CELERY_RESULT_BACKEND = None
CELERY_TASK_IGNORE_RESULT = True
CELERY_TIMEZONE = TIME_ZONE
CELERY_BEAT_SCHEDULER = "django_celery_beat.schedulers:DatabaseScheduler"
CELERY_WORKER_PREFETCH_MULTIPLIER = 1
# A match message is acknowledged only when the match is over: a worker that dies leaves it
# to be delivered again, and the match's claim (a lease) makes the redelivery safe.
CELERY_TASK_ACKS_LATE = True
CELERY_TASK_REJECT_ON_WORKER_LOST = True
BROKER_VISIBILITY_TIMEOUT = env_int("BROKER_VISIBILITY_TIMEOUT", 6 * 3600, minimum=1)
CELERY_BROKER_TRANSPORT_OPTIONS: dict[str, object] = {
    "visibility_timeout": BROKER_VISIBILITY_TIMEOUT,
    "unacked_restore_interval": 5,
    "unacked_restore_throttle": 1,
}
# The re-queue job takes over matches whose lease lapsed (see MATCH_LEASE_S below), and sends
# again the match and validation messages the broker lost (arena/queues/broker_contents.py).
MATCH_REQUEUE_EVERY_S = env_int("MATCH_REQUEUE_EVERY_S", 15, minimum=1)
# It sends an item's message again at most once in this many seconds: the broker's contents
# are read at one instant, and a message being handed to a worker is briefly in neither the
# queue nor the worker's unacknowledged set. Shorter than a lease, so that it never delays
# the take-over of a dead worker's match (sent before it started, so long enough ago).
MATCH_RESEND_AFTER_S = env_int("MATCH_RESEND_AFTER_S", 15, minimum=1)
# filesystem://: the embedded broker of `make demo`, message files under var/broker, for a
# real worker and beat on one machine without a broker server.
BROKER_DIR = VAR_DIR / "broker"
if CELERY_BROKER_URL.startswith("filesystem://"):
    for _folder in ("messages", "control"):
        (BROKER_DIR / _folder).mkdir(parents=True, exist_ok=True)
    # kombu's own filesystem transport lets a worker read a message file before it is
    # written (arena/queues/files.py): this one writes each file whole, then renames it.
    CELERY_BROKER_TRANSPORT = "arena.queues.files:Transport"
    CELERY_BROKER_TRANSPORT_OPTIONS = {
        "data_folder_in": str(BROKER_DIR / "messages"),
        "data_folder_out": str(BROKER_DIR / "messages"),
        "control_folder": str(BROKER_DIR / "control"),
        # A worker looks for new message files this often (kombu's default is 1 s): every
        # arena bot's move at a human's table is a message, and a person waits for each.
        "polling_interval": 0.2,
    }
CELERY_BEAT_SCHEDULE = {
    "matchmaking": {"task": "arena.matchmaking", "schedule": 300.0},
    "requeue-stale-matches": {
        "task": "arena.match_requeue_stale",
        "schedule": float(MATCH_REQUEUE_EVERY_S),
    },
    "refit-ratings": {"task": "arena.ratings_fit", "schedule": 900.0},
    "purge-quota-slots": {"task": "arena.quota_slots_purge", "schedule": 3600.0},
    "close-league-rounds": {"task": "leagues.rounds_close", "schedule": 60.0},
    "close-robot-events": {"task": "robots.events_close_due", "schedule": 60.0},
    # Scores the challenges of bots left past their expiry, and sends again the bot-only
    # tables of any whose task was lost (tables).
    "expire-play-challenges": {"task": "play.challenges_expire", "schedule": 300.0},
}
# Two queues by who waits (arena/queues/routing.py): CELERY_QUEUE is the interactive queue, the
# default; CELERY_QUEUE + "-background" takes matchmaking, league matches and rating refits.
CELERY_TASK_DEFAULT_QUEUE = env_str("CELERY_QUEUE", "arena") or "arena"
CELERY_TASK_ROUTES = ["arena.queues.routing.route_task"]
# Beat records each periodic job's last run and run count as soon as it sends the job, rather
# than every three minutes: the admin (and the demo's test) see that a job ran when it did,
# for one small write per periodic job sent.
CELERY_BEAT_SYNC_EVERY = 1

# Response cache (arena/http/caching.py): its own Redis or database when CACHE_URL is set, so that
# it can be given a maxmemory with allkeys-lru apart from the broker (deploy/README.md).
CACHE_URL = env_url("CACHE_URL", schemes=("redis", "rediss")) or REDIS_URL
# The per-process level in front of it: values up to this many bytes in all (an LRU).
LOCAL_CACHE_MAX_BYTES = env_int("LOCAL_CACHE_MAX_BYTES", 16 * 1024 * 1024, minimum=0)
# A cache that cannot be reached must fail fast: its callers fall back to the database.
_REDIS_OPTIONS = {"socket_connect_timeout": 2, "socket_timeout": 2}
# What the cache keys start with, so that deployments (or test runs side by side) can share
# one Redis without reading, or emptying, each other's entries.
CACHE_KEY_PREFIX = env_str("CACHE_KEY_PREFIX", "arena") or "arena"
if REDIS_URL:
    # Shared by every process. The request quotas are not here but in the database
    # (arena/http/quotas/slots.py), so that they keep counting while Redis is down.
    CACHES = {
        "default": {
            "BACKEND": "django.core.cache.backends.redis.RedisCache",
            "LOCATION": REDIS_URL,
            "KEY_PREFIX": CACHE_KEY_PREFIX,
            "OPTIONS": _REDIS_OPTIONS,
        },
    }
elif CELERY_BROKER_URL.startswith("filesystem://"):
    # The embedded mode's processes (web, worker, beat) share the default cache's entries.
    CACHES = {
        "default": {
            "BACKEND": "django.core.cache.backends.filebased.FileBasedCache",
            "LOCATION": str(VAR_DIR / "cache"),
        },
    }
else:
    CACHES = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}}
if CACHE_URL:
    CACHES["responses"] = {
        "BACKEND": "django.core.cache.backends.redis.RedisCache",
        "LOCATION": CACHE_URL,
        "KEY_PREFIX": f"{CACHE_KEY_PREFIX}-responses",
        "OPTIONS": _REDIS_OPTIONS,
    }
elif CELERY_BROKER_URL.startswith("filesystem://"):
    # The web process must see the leaderboard generation the worker bumps on each match.
    CACHES["responses"] = {
        "BACKEND": "django.core.cache.backends.filebased.FileBasedCache",
        "LOCATION": str(VAR_DIR / "cache-responses"),
        "OPTIONS": {"MAX_ENTRIES": 2000},
    }
else:
    CACHES["responses"] = {
        "BACKEND": "django.core.cache.backends.locmem.LocMemCache",
        "LOCATION": "arena-responses",
        "OPTIONS": {"MAX_ENTRIES": 2000},
    }

# Channel layer: how a change to a lobby table (lobby.live.publish, in a web process or a
# Celery worker) reaches the WebSockets of every web process. With Redis, its pub/sub layer
# by default (CHANNEL_LAYER=pubsub): a group message is one PUBLISH that Redis hands to the
# subscribed processes, with nothing stored; tests/bench/bench_live_tables.py measured it
# against the list-based layer (CHANNEL_LAYER=redis: a sorted set per group and a list per
# socket, kept for a reader that comes late). A frame is never sent from the message: every
# socket reads its own from the database, so a lost message costs a refresh, not a card.
# Without Redis (make demo) the in-memory layer: the demo runs one web process, which holds
# every socket, and the moves its Celery workers make reach them through the socket's own
# check of the table (LOBBY_SOCKET_POLL_S, lobby/consumers.py).
CHANNEL_LAYER = env_choice("CHANNEL_LAYER", "pubsub", choices=("pubsub", "redis"))
# Keys and Redis channels start with this, so that deployments and parallel test runs that
# share one Redis never hear each other's tables (tests/conftest.py suffixes it per process).
CHANNEL_LAYER_PREFIX = f"{CACHE_KEY_PREFIX}-asgi"
if REDIS_URL:
    CHANNEL_LAYERS: dict[str, dict[str, object]] = {
        "default": {
            "BACKEND": (
                "channels_redis.pubsub.RedisPubSubChannelLayer"
                if CHANNEL_LAYER == "pubsub"
                else "channels_redis.core.RedisChannelLayer"
            ),
            "CONFIG": {"hosts": [REDIS_URL], "prefix": CHANNEL_LAYER_PREFIX},
        }
    }
else:
    CHANNEL_LAYERS = {"default": {"BACKEND": "channels.layers.InMemoryChannelLayer"}}
# How often a socket compares its table's move count with the last frame it sent, and
# sends a new frame when they differ: the demo's (in-memory layer) only way to hear the
# moves its workers make; with Redis every change arrives as a message, and 0 turns it off.
LOBBY_SOCKET_POLL_S = (
    float(env_int("LOBBY_SOCKET_POLL_MS", 0 if REDIS_URL else 1000, minimum=0)) / 1000
)

# --- bot sandbox -------------------------------------------------------------------------

# bubblewrap: every bot runs in the sandbox (production, CI). plain: ordinary processes, for
# trusted bots only. auto: the sandbox when this machine can run it, else plain (make demo).
SANDBOX_MODE = env_choice("SANDBOX_MODE", "bubblewrap", choices=("bubblewrap", "plain", "auto"))
try:
    # SANDBOX_BOT_USER, SANDBOX_MEMORY_BYTES=512MiB, SANDBOX_PIDS, SANDBOX_CPU_SECONDS, ...:
    # any field of arena.sandbox.SandboxConfig or Limits, upper-cased with the prefix.
    SANDBOX_CONFIG = SandboxConfig.from_mapping(env_prefixed("SANDBOX_", exclude=("SANDBOX_MODE",)))
except ConfigError as error:
    raise ImproperlyConfigured(f"sandbox settings: {error}") from None

# --- matches and ratings -------------------------------------------------------------------

MATCH_DECISION_MS = env_int("MATCH_DECISION_MS", 1000, minimum=10)
MATCH_BANK_MS = env_int("MATCH_BANK_MS", 60_000, minimum=100)
# A running match's claim is a lease that its worker renews every MATCH_HEARTBEAT_S while it
# plays (between a bot's decisions). It lasts MATCH_LEASE_S, or longer when a single wait on
# a bot (a decision, a start-up) may be longer than the lease less two heartbeats. A dead
# worker's match is taken over by the re-queue job, which runs every MATCH_REQUEUE_EVERY_S:
# with the defaults it starts again within 20 + 15 seconds of the last heartbeat.
MATCH_HEARTBEAT_S = env_int("MATCH_HEARTBEAT_S", 5, minimum=1)
MATCH_LEASE_S = env_int("MATCH_LEASE_S", 20, minimum=2)
if MATCH_LEASE_S < 2 * MATCH_HEARTBEAT_S:
    raise ImproperlyConfigured("MATCH_LEASE_S must be at least twice MATCH_HEARTBEAT_S")
MATCH_MAX_RETRIES = env_int("MATCH_MAX_RETRIES", 5, minimum=0)
# After a match's tables, play the reference pairing on its deals for the control variate of
# its mean board result (arena/services/controls.py); it costs worker time, not bot time.
MATCH_REFERENCE_CONTROLS = env_bool("MATCH_REFERENCE_CONTROLS", True)
# A control found not to pay still runs in one eligible match in this many (by match id),
# so that its measure follows the bots and the controls' cost (0: never).
MATCH_CONTROL_RECHECK_EVERY = env_int("MATCH_CONTROL_RECHECK_EVERY", 20, minimum=0)
CHALLENGE_RATE = env_rate("CHALLENGE_RATE", "20/hour")
# A challenge of at most this many boards is played by the interactive workers (a person
# waits for it); a longer one is batch work, played by the background workers
# (arena/queues/routing.py), so that it never holds the slot the next upload's validation needs.
INTERACTIVE_MATCH_BOARDS = env_int("INTERACTIVE_MATCH_BOARDS", 12, minimum=1)
# How long each bot move stays on its own on a human's table page before the next is shown
# (tables); a click or Escape shows them all at once.
PLAY_REVEAL_MS = env_int("PLAY_REVEAL_MS", 700, minimum=0)
# A challenge of a bot (tables) must be played within this many seconds of being
# started: then its unplayed boards count as the player's forfeits and it is scored, so that
# every challenge started counts (the expiry job below, and any read of the challenge).
PLAY_CHALLENGE_EXPIRES_S = env_int("PLAY_CHALLENGE_EXPIRES_S", 24 * 3600, minimum=60)
# A player's casual tables (tables: the play page, POST /api/play/tables/) open at once:
# each holds a dealt hand and its bots' work, so they are bounded. Challenge and robot-event
# tables do not count: their own flows open one at a time. A casual table untouched for
# PLAY_TABLE_IDLE_S is ended as abandoned by the periodic job play.tables_expire.
PLAY_OPEN_TABLES_MAX = env_int("PLAY_OPEN_TABLES_MAX", 5, minimum=1)
PLAY_TABLE_IDLE_S = env_int("PLAY_TABLE_IDLE_S", 24 * 3600, minimum=60)
PLAY_EXPIRE_EVERY_S = env_int("PLAY_EXPIRE_EVERY_S", 600, minimum=1)
CELERY_BEAT_SCHEDULE["expire-idle-play-tables"] = {
    "task": "play.tables_expire",
    "schedule": float(PLAY_EXPIRE_EVERY_S),
}
# Card tables for people (lobby): each decision of a person has LOBBY_DECISION_S seconds,
# then draws on a bank of LOBBY_BANK_S for the whole game; when both are spent the table's
# substitute bot plays that decision. The sweep finds the decisions past their deadline.
LOBBY_DECISION_S = env_int("LOBBY_DECISION_S", 30, minimum=1)
LOBBY_BANK_S = env_int("LOBBY_BANK_S", 120, minimum=0)
# Tables a person hosts at once (waiting or in play): each holds a game and its bots' work.
LOBBY_OPEN_TABLES_MAX = env_int("LOBBY_OPEN_TABLES_MAX", 5, minimum=1)
LOBBY_SWEEP_EVERY_S = env_int("LOBBY_SWEEP_EVERY_S", 10, minimum=1)
CELERY_BEAT_SCHEDULE["lobby-clocks"] = {
    "task": "lobby.clocks_sweep",
    "schedule": float(LOBBY_SWEEP_EVERY_S),
}
# How often an open robot event's page asks for its standings again (robot_events).
ROBOTS_STANDINGS_REFRESH_S = env_int("ROBOTS_STANDINGS_REFRESH_S", 10, minimum=1)
MATCHMAKING_BOARDS = env_int("MATCHMAKING_BOARDS", 50, minimum=1)
VALIDATION_BOARDS = env_int("VALIDATION_BOARDS", 2, minimum=1)

# --- API ---------------------------------------------------------------------------------

REST_FRAMEWORK: dict[str, object] = {
    "DEFAULT_AUTHENTICATION_CLASSES": [
        "rest_framework.authentication.TokenAuthentication",
        "rest_framework.authentication.SessionAuthentication",
    ],
    "DEFAULT_PERMISSION_CLASSES": ["rest_framework.permissions.IsAuthenticatedOrReadOnly"],
    "DEFAULT_PAGINATION_CLASS": "arena.http.pagination.Pagination",
    "DEFAULT_FILTER_BACKENDS": [
        "django_filters.rest_framework.DjangoFilterBackend",
        "rest_framework.filters.OrderingFilter",
    ],
    "DEFAULT_RENDERER_CLASSES": [
        "arena.http.renderers.JSONRenderer",
        "arena.http.renderers.BrowsableAPIRenderer",
    ],
    "DEFAULT_SCHEMA_CLASS": "drf_spectacular.openapi.AutoSchema",
    "EXCEPTION_HANDLER": "arena.errors.exception_handler",
    "TEST_REQUEST_DEFAULT_FORMAT": "json",
}

# Request bodies (arena/http/middleware.py answers 413 above the limit, before reading): bot
# uploads are at most a 1 MiB zip or a 256 KiB module, sent as multipart or JSON text;
# nothing else needs more than a few KiB.
REQUEST_BODY_MAX_BYTES = env_int("REQUEST_BODY_MAX_BYTES", 256 * 1024, minimum=1024)
UPLOAD_REQUEST_MAX_BYTES = env_int("UPLOAD_REQUEST_MAX_BYTES", 1536 * 1024, minimum=1024)
UPLOAD_ROUTES = ("arena_api:bot-versions",)
DATA_UPLOAD_MAX_MEMORY_SIZE = UPLOAD_REQUEST_MAX_BYTES
FILE_UPLOAD_MAX_MEMORY_SIZE = UPLOAD_REQUEST_MAX_BYTES  # an upload is never spooled to disk
DATA_UPLOAD_MAX_NUMBER_FIELDS = 200
DATA_UPLOAD_MAX_NUMBER_FILES = 2

# Strict JSON, nested at most arena.http.parsers.MAX_DEPTH deep, no NUL in strings.
REST_FRAMEWORK["DEFAULT_PARSER_CLASSES"] = [
    "arena.http.parsers.JSONParser",
    "rest_framework.parsers.FormParser",
    "rest_framework.parsers.MultiPartParser",
]

UPLOAD_RATE = env_rate("UPLOAD_RATE", "30/hour")
# Quotas (arena.http.quotas.throttles): counted per player and, so that extra accounts gain nothing,
# per client IP; only accepted actions count.
# The client's IP is the socket's peer unless proxies of the deployment stand in front:
# TRUSTED_PROXIES is how many (deploy/nginx is one, and replaces X-Forwarded-For), and only
# the entries they wrote are believed (arena/http/client_address.py). A client's own
# X-Forwarded-For must never choose the address its quotas are counted under.
TRUSTED_PROXIES = env_int("TRUSTED_PROXIES", 0, minimum=0)
REST_FRAMEWORK["NUM_PROXIES"] = TRUSTED_PROXIES
UPLOAD_RATE_PER_IP = env_rate("UPLOAD_RATE_PER_IP", "60/hour")
CHALLENGE_RATE_PER_IP = env_rate("CHALLENGE_RATE_PER_IP", "40/hour")
# A human's challenges of a bot (tables), page and API alike: each deals a table and
# lets the bots move in the web process, so they are counted apart from the bots' matches.
PLAY_CHALLENGE_RATE = env_rate("PLAY_CHALLENGE_RATE", "20/hour")
PLAY_CHALLENGE_RATE_PER_IP = env_rate("PLAY_CHALLENGE_RATE_PER_IP", "40/hour")
# Casual tables started (tables), page and API alike, per player and per client IP.
PLAY_TABLE_RATE = env_rate("PLAY_TABLE_RATE", "60/hour")
PLAY_TABLE_RATE_PER_IP = env_rate("PLAY_TABLE_RATE_PER_IP", "120/hour")
# Failed sign-ins (token, page, admin), and registrations, per IP; failures also per account.
LOGIN_FAILURE_RATE_PER_IP = env_rate("LOGIN_FAILURE_RATE_PER_IP", "10/15m")
LOGIN_FAILURE_RATE = env_rate("LOGIN_FAILURE_RATE", "20/hour")
REGISTRATION_RATE = env_rate("REGISTRATION_RATE", "20/hour")
# Registrations from every address together (however many addresses a script has).
REGISTRATION_RATE_OVERALL = env_rate("REGISTRATION_RATE_OVERALL", "200/hour")
# How old an account must be to join a robot event or challenge a bot (arena/newcomers.py):
# an account made on the spot cannot play an event's boards for another. None with DEBUG on,
# where the demo's accounts play the moment they are made.
RATED_PLAY_MIN_ACCOUNT_AGE_S = env_int(
    "RATED_PLAY_MIN_ACCOUNT_AGE_S", 0 if DEBUG else 24 * 3600, minimum=0
)
AUTHENTICATION_BACKENDS = ["arena.signin.QuotaModelBackend"]
# Re-simulating a replay (?verify=true) that is not already cached, per IP.
VERIFY_RATE = env_rate("VERIFY_RATE", "30/hour")

SPECTACULAR_SETTINGS = {
    "TITLE": "Pinochle Arena API",
    "DESCRIPTION": (
        "Bots, matches, ratings, leagues and duplicate tournaments for the pinochle family "
        "and Pinnacolo. Authenticate with `Authorization: Token <key>` from /api/auth/token/."
    ),
    "VERSION": "1",
    "SERVE_INCLUDE_SCHEMA": False,
    "SWAGGER_UI_DIST": "SIDECAR",
    "SWAGGER_UI_FAVICON_HREF": "SIDECAR",
    "REDOC_DIST": "SIDECAR",
    "COMPONENT_SPLIT_REQUEST": True,
    # Several models have a `status` or `kind`: each choice set gets its model's name.
    "ENUM_NAME_OVERRIDES": {
        "BotVersionStatusEnum": "arena.models.BotVersion.Status",
        "BotVersionKindEnum": "arena.models.BotVersion.Kind",
        "MatchStatusEnum": "arena.models.Match.Status",
        "MatchKindEnum": "arena.models.Match.Kind",
        "SeasonStatusEnum": "leagues.models.Season.Status",
        "RoundStatusEnum": "leagues.models.Round.Status",
        "EventStatusEnum": "tournaments.models.Event.Status",
        "EventKindEnum": "tournaments.models.Event.Kind",
        "VariantEnum": "arena.variants.Variant",
        "RobotEventVariantEnum": "robot_events.models.ROBOT_VARIANTS",
        "RobotEventRobotsEnum": "robot_events.models.RobotEvent.Robots",
        "RobotEventKindEnum": "robot_events.models.RobotEvent.Kind",
        "RobotEventScoringEnum": "robot_events.models.RobotEvent.Scoring",
    },
}

# Every operation documents its refusals (400/401/403/404/413/429/503) with one error schema.
SPECTACULAR_SETTINGS["POSTPROCESSING_HOOKS"] = [
    "drf_spectacular.hooks.postprocess_schema_enums",
    "arena.api.openapi.document_refusals",
]

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "handlers": {"console": {"class": "logging.StreamHandler"}},
    "root": {"handlers": ["console"], "level": env_str("LOG_LEVEL", "INFO") or "INFO"},
}

# --- security: HTTPS behind the proxy, cookies, Content-Security-Policy --------------------

# ARENA_HTTPS=true: the site is served over HTTPS by a proxy that terminates TLS and says so
# in X-Forwarded-Proto (deploy/nginx/arena.conf; the deployment's files set it). Off, the
# process answers plain HTTP: DEBUG on (make demo), tests and benchmarks on loopback.
ARENA_HTTPS = env_bool("ARENA_HTTPS", False)
if ARENA_HTTPS:
    if DEBUG:
        raise ImproperlyConfigured("ARENA_HTTPS=true is for production: it needs DEBUG off")
    # Django's own bar (check --deploy, security.W009): a short key is guessable offline
    # from any signed cookie or password-reset link.
    if len(SECRET_KEY) < 50 or len(set(SECRET_KEY)) < 5:
        raise ImproperlyConfigured(
            "SECRET_KEY must be at least 50 characters with at least 5 different ones: "
            'generate one with python -c "import secrets; print(secrets.token_urlsafe(50))"'
        )
    # Trusted only because the proxy overwrites the header (never publish gunicorn's port).
    SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
    SECURE_SSL_REDIRECT = True
    SECURE_HSTS_SECONDS = env_int("SECURE_HSTS_SECONDS", 365 * 24 * 3600, minimum=1)
    SECURE_HSTS_INCLUDE_SUBDOMAINS = True
    SECURE_HSTS_PRELOAD = True
    SESSION_COOKIE_SECURE = True
    CSRF_COOKIE_SECURE = True

# The same policy in every mode, so that the demo and the tests break where production would.
# No inline script or style anywhere; the API docs pages relax it for ReDoc alone
# (arena/api_docs.py).
MIDDLEWARE.insert(
    MIDDLEWARE.index("django.middleware.security.SecurityMiddleware") + 1,
    "csp.middleware.CSPMiddleware",
)
CONTENT_SECURITY_POLICY = {
    "DIRECTIVES": {
        "default-src": ["'self'"],
        "script-src": ["'self'"],
        "style-src": ["'self'"],
        "img-src": ["'self'", "data:"],
        "frame-ancestors": ["'none'"],
        "form-action": ["'self'"],
        "base-uri": ["'self'"],
    }
}
