"""The standard's ``linalg`` extension (its functions arrive with the linear-algebra issue)."""

__all__: list[str] = []
