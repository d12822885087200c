"""The site's guard against guessing: the client's address behind trusted proxies
(`client_address`), counts that expire and are taken atomically (`counters`, kept in the
database by `models.RateCount`), and the limits on signing in (`login_limit`). Below the
tournament apps, which ask it (the table codes' limits), and free of them."""
