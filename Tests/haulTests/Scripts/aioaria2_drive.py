"""Drives an aria2 RPC daemon with aioaria2 (PyPI), over its WebSocket, and prints one JSON
object of what it saw.

usage: aioaria2_drive.py RPC_PORT SECRET QUICK_URL MISSING_URL

- addUri of QUICK_URL, with options as aioaria2's users give them; its onDownloadComplete comes;
- a multicall (the secret put in each call by aioaria2) of getVersion, tellStatus and getOption;
- addUri of MISSING_URL (one try): its onDownloadError comes;
- a wrong secret is refused with aria2's code 1.
"""
import asyncio
import json
import sys

from aioaria2 import Aria2WebsocketClient
from aioaria2.exceptions import Aria2rpcException

port, secret, quick, missing = sys.argv[1:5]
url = "ws://127.0.0.1:%s/jsonrpc" % port


async def main():
    seen = {}
    done = asyncio.Event()
    failed = asyncio.Event()
    async with await Aria2WebsocketClient.new(url, token=secret) as client:

        @client.onDownloadComplete
        async def on_complete(trigger, data):
            seen.setdefault("completed", []).append(data["params"][0]["gid"])
            done.set()

        @client.onDownloadError
        async def on_error(trigger, data):
            seen.setdefault("errors", []).append(data["params"][0]["gid"])
            failed.set()

        gid = await client.addUri([quick], {"split": "2", "file-allocation": "none", "max-tries": "2"})
        seen["added"] = gid
        await asyncio.wait_for(done.wait(), 15)
        results = await client.multicall([
            {"methodName": "aria2.getVersion", "params": []},
            {"methodName": "aria2.tellStatus", "params": [gid, ["status", "totalLength", "completedLength"]]},
            {"methodName": "aria2.getOption", "params": [gid]},
        ])
        seen["version"] = "version" in results[0][0]
        seen["status"] = results[1][0]
        seen["split"] = results[2][0].get("split")
        bad = await client.addUri([missing], {"max-tries": "1"})
        await asyncio.wait_for(failed.wait(), 15)
        seen["error_gid_matches"] = bad in seen.get("errors", [])
    async with await Aria2WebsocketClient.new(url, token="wrong-" + secret) as wrong:
        try:
            await wrong.getGlobalStat()
            seen["wrong_secret"] = "accepted"
        except Aria2rpcException as error:
            seen["wrong_secret"] = str(error)
    print(json.dumps(seen))


asyncio.run(main())
