"""Drives AriaNg 1.3.2's BitTorrent pages in headless Chromium against an aria2 RPC daemon (haul's
or aria2c's), as a user would, and prints one JSON object of what it saw.

usage: ariang_torrent.py ARIANG_DIR RPC_PORT SECRET TORRENT_FILE MAGNET SEEDER_PORT

The daemon is started with a low overall download limit, so the torrents run while they are
looked at. Then:
- New, the magnet link typed, Download Now: it is listed; its page's Peers tab shows the seeder
  (127.0.0.1:SEEDER_PORT);
- New, Open Torrent File with TORRENT_FILE (a folder: disc/b.bin, then a.bin), Download Later:
  it waits; its page's Files tab lists both files; unticking the first sends select-file, seen
  with getOption;
- the limit lifted and the torrent started: it completes with the second file only, and its
  Overview shows what a torrent's does (its hash, its seeders).
"""
import json
import os
import sys
import urllib.request

from selenium.webdriver.common.by import By

from ariang_browser import open_page, start, wait_for, warnings
import ariang_browser

ariang, port, secret, torrent_file, magnet, seeder_port = sys.argv[1:7]

opener = urllib.request.build_opener(urllib.request.ProxyHandler({}))


def rpc(method, *params):
    body = json.dumps({"jsonrpc": "2.0", "id": "t", "method": method, "params": ["token:" + secret, *params]})
    request = urllib.request.Request("http://127.0.0.1:%s/jsonrpc" % port, data=body.encode())
    return json.loads(opener.open(request, timeout=10).read())["result"]


driver, page = start(ariang, port, secret)
seen = {}


def body():
    return ariang_browser.body(driver)


def click(selector):
    wait_for(lambda: any(e.is_displayed() for e in driver.find_elements(By.CSS_SELECTOR, selector)))
    [e for e in driver.find_elements(By.CSS_SELECTOR, selector) if e.is_displayed()][0].click()


def button(text):
    wait_for(lambda: any(b.is_displayed() and b.text == text for b in driver.find_elements(By.TAG_NAME, "button")))
    [b for b in driver.find_elements(By.TAG_NAME, "button") if b.is_displayed() and b.text == text][0].click()


def open_tab(gid, tab):
    open_page(driver, page, "task/detail/" + gid)
    click("[ng-click=\"changeTab('%s')\"]" % tab)


try:
    open_page(driver, page, "new")
    seen["connected"] = wait_for(lambda: "Connected" in body())
    wait_for(lambda: driver.find_elements(By.CSS_SELECTOR, "textarea[ng-model='context.urls']"))
    driver.find_element(By.CSS_SELECTOR, "textarea[ng-model='context.urls']").send_keys(magnet)
    button("Download Now")
    # Its data, once its metadata came (aria2c fetches the metadata as a download of its own).
    def fetching():
        return [d["gid"] for d in rpc("aria2.tellActive", ["gid", "totalLength"]) if int(d["totalLength"]) > 100000]
    seen["magnet_listed"] = wait_for(lambda: len(fetching()) == 1, seconds=20)
    magnet_gid = fetching()[0]
    open_tab(magnet_gid, "btpeers")
    seen["peers_shown"] = wait_for(lambda: "127.0.0.1:" + seeder_port in body(), seconds=20)

    # Open Torrent File: AriaNg reads the file its hidden input is given.
    open_page(driver, page, "new")
    wait_for(lambda: "Connected" in body())
    driver.execute_script("angular.element(document.querySelector('[ng-click=\"openTorrent()\"]')).scope().openTorrent()")
    holder = driver.find_element(By.ID, "file-holder")
    driver.execute_script("arguments[0].style.display = 'block';", holder)
    holder.send_keys(os.path.abspath(torrent_file))
    # Download Later is in the menu beside Download Now.
    click("button.dropdown-toggle[data-toggle='dropdown'].btn-success")
    click("[ng-click='startDownload(true)']")
    seen["torrent_waiting"] = wait_for(lambda: len(rpc("aria2.tellWaiting", 0, 10, ["gid"])) == 1)
    torrent_gid = rpc("aria2.tellWaiting", 0, 10, ["gid"])[0]["gid"]
    open_tab(torrent_gid, "filelist")
    seen["files_shown"] = wait_for(lambda: "a.bin" in body() and "b.bin" in body())
    # The first file's tick, by its label (the box itself is styled away).
    click("label[for='file_1']")
    wait_for(lambda: rpc("aria2.getOption", torrent_gid).get("select-file") == "2")
    seen["select_file"] = rpc("aria2.getOption", torrent_gid).get("select-file")

    rpc("aria2.changeGlobalOption", {"max-overall-download-limit": "0"})
    rpc("aria2.unpause", torrent_gid)
    wait_for(lambda: rpc("aria2.tellStatus", torrent_gid, ["seeder"])["seeder"] == "true", seconds=60)
    files = rpc("aria2.getFiles", torrent_gid)
    seen["files"] = [[os.path.relpath(f["path"], rpc("aria2.tellStatus", torrent_gid, ["dir"])["dir"]),
                      f["selected"], f["completedLength"]] for f in files]
    open_tab(torrent_gid, "overview")
    status = rpc("aria2.tellStatus", torrent_gid, ["infoHash"])
    seen["overview_hash"] = wait_for(lambda: status["infoHash"] in body())
    seen["error_dialog"] = "Cannot connect to aria2" in body()
    # AriaNg's own warnings, for a step that did not go through.
    seen["warnings"] = warnings(driver)
finally:
    driver.quit()
print(json.dumps(seen))
