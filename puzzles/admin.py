"""Admin of the puzzle bank: puzzles (filter, re-grade), packs (ask for one, follow its
progress live, cancel, download, print)."""

from __future__ import annotations

from typing import Any

from django import forms
from django.contrib import admin, messages
from django.db.models import Count, QuerySet
from django.http import HttpRequest, HttpResponse, HttpResponseNotAllowed, JsonResponse
from django.shortcuts import get_object_or_404, redirect
from django.template.response import TemplateResponse
from django.urls import path, reverse
from django.utils.html import format_html
from django.utils.text import format_lazy
from django.utils.translation import gettext_lazy as _
from django.utils.translation import ngettext

from puzzles import bank, packs, selectors
from puzzles.exports import FORMATS, pack_export
from puzzles.models import DailyPuzzle, Difficulty, Puzzle, PuzzlePack, Symmetry
from puzzles.printing import print_pages
from ratings.admin import PuzzleRatingInline
from solver import format_pretty
from solver.logic.techniques import ORDER


class PackFilter(admin.SimpleListFilter):
    """Puzzles of one pack; lists the 50 newest packs (a pack id in the URL works for any)."""

    title = "pack"
    parameter_name = "pack"

    def lookups(self, request: HttpRequest, model_admin: Any) -> list[tuple[str, str]]:
        packs = PuzzlePack.objects.order_by("-created").values_list("id", "name")[:50]
        return [(str(pk), name) for pk, name in packs]

    def queryset(self, request: HttpRequest, queryset: QuerySet) -> QuerySet:
        value = self.value()
        if value and value.isdigit():
            return queryset.filter(pack_entries__pack_id=int(value))
        return queryset


@admin.register(Puzzle)
class PuzzleAdmin(admin.ModelAdmin):
    list_display = (
        "id",
        "size_label",
        "difficulty",
        "score",
        "hardest_technique",
        "clue_count",
        "symmetry",
        "source",
        "created",
    )
    list_filter = ("size", "difficulty", "source", "symmetry", PackFilter)
    search_fields = ("=id", "givens", "=canonical_key")
    list_per_page = 50
    show_full_result_count = False
    actions = ["regrade", "promote"]
    inlines = [PuzzleRatingInline]  # rating, deviation, plays (ratings.admin)
    fields = (
        "size",
        ("box_rows", "box_cols"),
        ("difficulty", "score", "hardest_technique"),
        "techniques",
        ("clue_count", "symmetry", "source"),
        "givens_grid",
        "solution_grid",
        "givens",
        "canonical_key",
        "created",
    )
    readonly_fields = (
        "size",
        "box_rows",
        "box_cols",
        "difficulty",
        "score",
        "hardest_technique",
        "techniques",
        "clue_count",
        "symmetry",
        "source",
        "givens_grid",
        "solution_grid",
        "givens",
        "canonical_key",
        "created",
    )

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False  # puzzles come from packs and imports, which check them

    @admin.display(description=_("size"), ordering="size")
    def size_label(self, puzzle: Puzzle) -> str:
        return f"{puzzle.size}x{puzzle.size}"

    @admin.display(description=_("givens"))
    def givens_grid(self, puzzle: Puzzle) -> str:
        return format_html('<pre class="puzzle-grid">{}</pre>', format_pretty(puzzle.grid()))

    @admin.display(description=_("solution"))
    def solution_grid(self, puzzle: Puzzle) -> str:
        return format_html(
            '<pre class="puzzle-grid">{}</pre>', format_pretty(puzzle.solution_grid())
        )

    @admin.action(
        description=_("Take the selected typed-in puzzles into the bank"), permissions=["change"]
    )
    def promote(self, request: HttpRequest, queryset: QuerySet) -> None:
        ids = list(queryset.values_list("id", flat=True)[:2000])
        promoted = bank.puzzle_promote(puzzle_ids=ids)
        self.message_user(
            request,
            ngettext(
                "%(count)d typed-in puzzle taken into the bank.",
                "%(count)d typed-in puzzles taken into the bank.",
                promoted,
            )
            % {"count": promoted},
        )

    @admin.action(description=_("Re-grade the selected puzzles"), permissions=["change"])
    def regrade(self, request: HttpRequest, queryset: QuerySet) -> None:
        if queryset.count() > 2000:
            self.message_user(
                request, _("Select at most 2,000 puzzles to re-grade at once."), messages.ERROR
            )
            return
        changed = bank.puzzle_regrade(puzzles=queryset.iterator())
        self.message_user(
            request,
            ngettext(
                "Re-graded: %(count)s puzzle changed level or score.",
                "Re-graded: %(count)s puzzles changed level or score.",
                changed,
            )
            % {"count": changed},
        )


class PackRequestForm(forms.ModelForm):
    """What a staff member asks for; checked by the same rules as the API."""

    size = forms.TypedChoiceField(
        choices=[(s, f"{s}x{s}") for s in packs.PACK_SIZES], coerce=int, initial=9
    )
    difficulty = forms.ChoiceField(choices=Difficulty.choices)
    count = forms.IntegerField(
        min_value=1,
        max_value=packs.PACK_MAX_COUNT,
        initial=100,
        help_text=format_lazy(_("1 to {maximum} puzzles."), maximum=f"{packs.PACK_MAX_COUNT:,}"),
    )
    symmetry = forms.ChoiceField(choices=Symmetry.choices, initial=Symmetry.NONE)
    technique = forms.ChoiceField(
        choices=[("", "any")] + [(t.slug, t.name) for t in ORDER],
        required=False,
        help_text="A practice pack: every puzzle needs this technique.",
    )

    class Meta:
        model = PuzzlePack
        fields = ("name", "size", "difficulty", "count", "symmetry", "technique")

    def clean(self) -> dict[str, Any]:
        data = super().clean()
        if self.errors:
            return data
        try:
            packs.pack_request_validate(
                name=data["name"],
                size=data["size"],
                difficulty=data["difficulty"],
                count=data["count"],
                symmetry=data["symmetry"],
                technique=data.get("technique", ""),
            )
        except packs.PackRequestInvalid as exc:
            self.add_error(exc.field_name, exc.message.split(": ", 1)[-1])
        return data


@admin.register(PuzzlePack)
class PuzzlePackAdmin(admin.ModelAdmin):
    list_display = (
        "name",
        "size_label",
        "difficulty",
        "count",
        "made",
        "progress_bar",
        "status",
        "requested_by",
        "created",
    )
    list_filter = ("status", "size", "difficulty")
    search_fields = ("name",)
    list_select_related = ("requested_by",)
    change_form_template = "admin/puzzles/puzzlepack/change_form.html"
    readonly_fields = (
        "name",
        "size",
        "box_rows",
        "box_cols",
        "difficulty",
        "symmetry",
        "count",
        "made",
        "progress_bar",
        "status",
        "error",
        "seed",
        "chunk_size",
        "requested_by",
        "created",
        "started",
        "finished",
    )

    class Media:
        js = ("puzzles/pack_progress.js",)
        css = {"all": ("puzzles/admin.css",)}

    def get_queryset(self, request: HttpRequest) -> QuerySet:
        return super().get_queryset(request).annotate(made_count=Count("entries", distinct=True))

    def get_form(self, request: HttpRequest, obj: Any = None, change: bool = False, **kwargs: Any):
        if obj is None:
            kwargs["form"] = PackRequestForm
        return super().get_form(request, obj, change=change, **kwargs)

    def get_fields(self, request: HttpRequest, obj: Any = None):
        if obj is None:
            return PackRequestForm.Meta.fields
        return self.readonly_fields

    def get_readonly_fields(self, request: HttpRequest, obj: Any = None):
        return () if obj is None else self.readonly_fields

    def save_form(self, request: HttpRequest, form: Any, change: bool) -> Any:
        if change:
            return super().save_form(request, form, change)
        data = form.cleaned_data
        return packs.pack_create(
            name=data["name"],
            size=data["size"],
            difficulty=data["difficulty"],
            count=data["count"],
            symmetry=data["symmetry"],
            technique=data.get("technique", ""),
            requested_by=request.user,
        )

    def response_add(self, request: HttpRequest, obj: Any, post_url_continue: Any = None):
        # Straight to the new pack's page, where its progress bar moves.
        self.message_user(
            request, _("The pack %(name)s was queued.") % {"name": repr(obj.name)}, messages.SUCCESS
        )
        return redirect("admin:puzzles_puzzlepack_change", obj.pk)

    def save_model(self, request: HttpRequest, obj: Any, form: Any, change: bool) -> None:
        if change:
            super().save_model(request, obj, form, change)

    def save_related(self, request: HttpRequest, form: Any, formsets: Any, change: bool) -> None:
        if change:
            super().save_related(request, form, formsets, change)

    @admin.display(description=_("size"), ordering="size")
    def size_label(self, pack: PuzzlePack) -> str:
        return f"{pack.size}x{pack.size}"

    @admin.display(description=_("made"))
    def made(self, pack: PuzzlePack) -> int:
        made = getattr(pack, "made_count", None)
        return pack.entries.count() if made is None else made

    @admin.display(description=_("progress"))
    def progress_bar(self, pack: PuzzlePack) -> str:
        made = self.made(pack)
        url = reverse("admin:puzzles_puzzlepack_progress", args=[pack.pk])
        return format_html(
            '<progress class="pack-progress" max="{}" value="{}" data-progress-url="{}" '
            'data-finished="{}"></progress> <span class="pack-progress-text">{} / {} ({})</span>',
            pack.count,
            made,
            url,
            "1" if pack.status in PuzzlePack.FINISHED else "",
            made,
            pack.count,
            pack.get_status_display(),
        )

    def get_urls(self):
        wrap = self.admin_site.admin_view
        return [
            path(
                "<int:pack_id>/progress/",
                wrap(self.progress_view),
                name="puzzles_puzzlepack_progress",
            ),
            path("<int:pack_id>/cancel/", wrap(self.cancel_view), name="puzzles_puzzlepack_cancel"),
            path(
                "<int:pack_id>/export/<str:fmt>/",
                wrap(self.export_view),
                name="puzzles_puzzlepack_export",
            ),
            path("<int:pack_id>/print/", wrap(self.print_view), name="puzzles_puzzlepack_print"),
            *super().get_urls(),
        ]

    def _pack(self, request: HttpRequest, pack_id: int) -> PuzzlePack:
        pack = get_object_or_404(PuzzlePack, pk=pack_id)
        if not self.has_view_permission(request, pack):
            from django.core.exceptions import PermissionDenied

            raise PermissionDenied
        return pack

    def progress_view(self, request: HttpRequest, pack_id: int) -> JsonResponse:
        pack = self._pack(request, pack_id)
        progress = selectors.pack_progress(pack=pack)
        progress["status_display"] = pack.get_status_display()
        return JsonResponse(progress)

    def cancel_view(self, request: HttpRequest, pack_id: int) -> HttpResponse:
        if request.method != "POST":
            return HttpResponseNotAllowed(["POST"])
        pack = self._pack(request, pack_id)
        if not self.has_change_permission(request, pack):
            from django.core.exceptions import PermissionDenied

            raise PermissionDenied
        try:
            packs.pack_cancel(pack=pack)
        except packs.PackNotActive as exc:
            self.message_user(request, exc.message, messages.WARNING)
        else:
            self.message_user(
                request, _("The pack %(name)s was cancelled.") % {"name": repr(pack.name)}
            )
        return redirect("admin:puzzles_puzzlepack_change", pack.pk)

    def export_view(self, request: HttpRequest, pack_id: int, fmt: str) -> HttpResponse:
        pack = self._pack(request, pack_id)
        if fmt not in FORMATS:
            return HttpResponse(
                _("Unknown format %(format)s: use %(formats)s.")
                % {"format": repr(fmt), "formats": ", ".join(FORMATS)},
                status=400,
                content_type="text/plain",
            )
        exported = pack_export(pack=pack, fmt=fmt)
        response = HttpResponse(exported.content, content_type=exported.content_type)
        response["Content-Disposition"] = f'attachment; filename="{exported.filename}"'
        return response

    def print_view(self, request: HttpRequest, pack_id: int) -> HttpResponse:
        pack = self._pack(request, pack_id)
        entries = list(selectors.pack_entries(pack=pack))
        context = {
            **self.admin_site.each_context(request),
            "pack": pack,
            **print_pages(pack=pack, entries=entries),
        }
        return TemplateResponse(request, "puzzles/print.html", context)

    def render_change_form(self, request: HttpRequest, context: dict, *args: Any, **kwargs: Any):
        obj = kwargs.get("obj")
        if obj is not None:
            # A pack is never edited: its page shows progress and the actions.
            context.update(
                show_save=False, show_save_and_continue=False, show_save_and_add_another=False
            )
            context["export_formats"] = FORMATS
            context["pack_active"] = obj.status in PuzzlePack.ACTIVE
        return super().render_change_form(request, context, *args, **kwargs)


@admin.register(DailyPuzzle)
class DailyPuzzleAdmin(admin.ModelAdmin):
    list_display = ("date", "variant", "size", "constrained", "puzzle")
    list_filter = ("variant", "size", "constrained")
    date_hierarchy = "date"
    raw_id_fields = ("puzzle",)
    list_select_related = ("puzzle",)
