"""URL routes (filled as the views land)."""

urlpatterns: list = []
