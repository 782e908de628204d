"""Mastodon.py against a running Kruh instance, driven by client-python-and-toot.test.ts.

`app <origin> <redirect>` registers an app and prints its id and secret; `session <json>` signs in
with the code the test had approved and walks through an app's everyday calls. Each step prints
one JSON object on stdout, which the test asserts on.
"""
import json
import sys

from mastodon import Mastodon

SCOPES = ["read", "write", "follow"]


def register(origin, redirect):
    client_id, client_secret = Mastodon.create_app(
        "Mastodon.py test", scopes=SCOPES, redirect_uris=redirect, api_base_url=origin
    )
    print(json.dumps({"client_id": client_id, "client_secret": client_secret}))


def ids(items):
    return [item["id"] for item in items]


def session(args):
    api = Mastodon(client_id=args["client_id"], client_secret=args["client_secret"], api_base_url=args["origin"])
    token = api.log_in(code=args["code"], redirect_uri=args["redirect"], scopes=SCOPES)
    # The library reads the instance's version once, and refuses the calls newer than it.
    out = {"token": bool(token), "version": [api.version_check_worked, api.mastodon_major, api.mastodon_minor]}

    me = api.account_verify_credentials()
    out["me"] = {"id": me["id"], "username": me["username"], "acct": me["acct"]}

    warned = api.status_post("Behind a warning", spoiler_text="a warning")
    out["warned"] = {"id": warned["id"], "spoiler_text": warned["spoiler_text"], "sensitive": warned["sensitive"]}

    media = api.media_post(args["png"], mime_type="image/png", description="A small square")
    out["media"] = {"id": media["id"], "type": media["type"], "description": media["description"]}
    pictured = api.status_post("With a picture", media_ids=[media["id"]])
    out["pictured"] = {"id": pictured["id"], "media": [[m["type"], m["description"]] for m in pictured["media_attachments"]]}

    reply = api.status_reply(pictured, "Answering myself")
    out["reply"] = {"id": reply["id"], "in_reply_to_id": reply["in_reply_to_id"]}

    favourited = api.status_favourite(args["other_status"])
    out["favourited"] = {"id": favourited["id"], "favourited": favourited["favourited"]}

    relationship = api.account_follow(args["other_id"])
    out["follow"] = {"id": relationship["id"], "following": relationship["following"]}

    out["home"] = ids(api.timeline_home(limit=40))
    out["notifications"] = [{"type": n["type"], "account": n["account"]["id"]} for n in api.notifications()]

    found = api.search_v2(args["query"], resolve=False)
    out["search"] = {"accounts": ids(found["accounts"]), "statuses": ids(found["statuses"]), "hashtags": [t["name"] for t in found["hashtags"]]}

    # Paging through the other person's statuses two at a time, by the Link headers.
    pages = []
    page = api.account_statuses(args["other_id"], limit=2)
    while page and len(pages) < 10:
        pages.append(ids(page))
        page = api.fetch_next(page)
    out["pages"] = pages

    deleted = api.status_delete(warned["id"])
    out["deleted"] = {"id": deleted["id"]}
    try:
        api.status(warned["id"])
        out["gone"] = False
    except Exception as error:  # Mastodon.py raises its not-found error for a deleted status.
        out["gone"] = type(error).__name__

    print(json.dumps(out, default=str))


if __name__ == "__main__":
    if sys.argv[1] == "app":
        register(sys.argv[2], sys.argv[3])
    else:
        session(json.loads(sys.argv[2]))
