"""REST API of leagues and cup series (under /api/v1/, routes in leagues.api_urls): thin DRF
views over leagues.services and leagues.selectors, in the house style of tournaments.api."""
