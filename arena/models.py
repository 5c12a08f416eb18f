"""Players, bots and their uploaded versions."""

from __future__ import annotations

from django.conf import settings
from django.core.validators import RegexValidator
from django.db import models

from arena.variants import Variant

bot_name_validator = RegexValidator(
    r"^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$",
    "A bot name is 1 to 64 letters, digits, '_', '.' or '-', starting with a letter or digit.",
)


class Player(models.Model):
    """The public face of a user account: what rating lists and replays show."""

    user = models.OneToOneField(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="player"
    )
    display_name = models.CharField(max_length=64)
    created = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["id"]

    def __str__(self) -> str:
        return self.display_name


class Bot(models.Model):
    owner = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="bots")
    name = models.CharField(max_length=64, validators=[bot_name_validator])
    variant = models.CharField(max_length=16, choices=Variant.choices)
    description = models.TextField(blank=True, max_length=2000)
    created = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["id"]
        constraints = [
            models.UniqueConstraint(fields=["owner", "name"], name="bot_name_unique_per_owner"),
        ]

    def __str__(self) -> str:
        return f"{self.owner.user.username}/{self.name}"


class BotVersion(models.Model):
    """One uploaded revision of a bot. Its source never changes once stored."""

    class Status(models.TextChoices):
        PENDING = "pending", "Pending validation"
        ACTIVE = "active", "Active"
        REJECTED = "rejected", "Rejected"
        DISABLED = "disabled", "Disabled"

    class Kind(models.TextChoices):
        MODULE = "module", "Single Python module"
        ZIP = "zip", "Zip archive with bot.py"

    bot = models.ForeignKey(Bot, on_delete=models.CASCADE, related_name="versions")
    number = models.PositiveIntegerField()
    kind = models.CharField(max_length=8, choices=Kind.choices)
    source = models.BinaryField(editable=False)
    sha256 = models.CharField(max_length=64)
    size = models.PositiveIntegerField()
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.PENDING)
    status_reason = models.TextField(blank=True)
    build_log = models.TextField(blank=True)
    created = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["bot_id", "number"]
        constraints = [
            models.UniqueConstraint(fields=["bot", "number"], name="bot_version_number_unique"),
            models.CheckConstraint(
                condition=models.Q(number__gte=1), name="bot_version_number_positive"
            ),
            models.CheckConstraint(
                condition=models.Q(status__in=["pending", "active", "rejected", "disabled"]),
                name="bot_version_status_valid",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.bot} v{self.number}"
