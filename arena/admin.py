from django.contrib import admin

from arena.models import Bot, BotVersion, Player


@admin.register(Player)
class PlayerAdmin(admin.ModelAdmin):
    list_display = ["id", "display_name", "user", "created"]
    search_fields = ["display_name", "user__username"]


class BotVersionInline(admin.TabularInline):
    model = BotVersion
    fields = ["number", "kind", "status", "size", "sha256", "created"]
    readonly_fields = fields
    extra = 0
    can_delete = False
    show_change_link = True


@admin.register(Bot)
class BotAdmin(admin.ModelAdmin):
    list_display = ["id", "name", "owner", "variant", "created"]
    list_filter = ["variant"]
    search_fields = ["name", "owner__user__username"]
    inlines = [BotVersionInline]


@admin.register(BotVersion)
class BotVersionAdmin(admin.ModelAdmin):
    list_display = ["id", "bot", "number", "kind", "status", "size", "created"]
    list_filter = ["status", "kind"]
    search_fields = ["bot__name", "sha256"]
    # The uploaded source is immutable: an administrator may disable a version, not edit it.
    readonly_fields = ["bot", "number", "kind", "sha256", "size", "build_log", "created"]
    fields = [
        "bot",
        "number",
        "kind",
        "sha256",
        "size",
        "status",
        "status_reason",
        "build_log",
        "created",
    ]

    def has_add_permission(self, request, obj=None):  # type: ignore[no-untyped-def]
        return False
