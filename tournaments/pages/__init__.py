"""The server-rendered pages of the site and their routes: the public pages, the
organiser's, the referee's, the table pages of officials and phones, check-in, officials
and the player registry. Thin: they parse, ask `domain.rights`, call selectors or
services and render."""
