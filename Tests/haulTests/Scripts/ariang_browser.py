"""What the AriaNg drivers share: headless Chromium with AriaNg 1.3.2 opened from its file (as its
users open it: its Origin is then `null`), its RPC settings put in localStorage (AriaNg.Options),
and the small waits a page that updates itself needs."""
import base64
import json
import os
import time

from selenium import webdriver
from selenium.webdriver.chrome.options import Options
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.by import By


def start(ariang, port, secret):
    """Chromium on AriaNg's page, set to reach the daemon on loopback PORT (over its WebSocket)
    with SECRET; returns the driver and the page's address."""
    options = Options()
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    for argument in ["--headless=new", "--no-sandbox", "--disable-gpu", "--window-size=1280,900"]:
        options.add_argument(argument)
    driver = webdriver.Chrome(service=Service("/usr/bin/chromedriver"), options=options)
    page = "file://" + os.path.abspath(ariang) + "/index.html"
    driver.get(page)
    stored = json.loads(driver.execute_script("return localStorage.getItem('AriaNg.Options');") or "{}")
    stored.update({
        "rpcHost": "127.0.0.1", "rpcPort": port, "rpcInterface": "jsonrpc", "protocol": "ws",
        "secret": base64.b64encode(secret.encode()).decode(),
    })
    driver.execute_script("localStorage.setItem('AriaNg.Options', arguments[0]);", json.dumps(stored))
    return driver, page


def body(driver):
    return driver.find_element(By.TAG_NAME, "body").text


def wait_for(condition, seconds=15):
    """Whether CONDITION came true within SECONDS (asked every 0.2 s; a page mid-update may throw)."""
    deadline = time.time() + seconds
    while time.time() < deadline:
        try:
            if condition():
                return True
        except Exception:
            pass
        time.sleep(0.2)
    return False


def open_page(driver, page, name):
    """AriaNg's page NAME (`settings/aria2/basic`, `task/detail/GID`…), loaded afresh."""
    driver.get(page + "#!/" + name)
    driver.refresh()


def warnings(driver):
    """AriaNg's own warnings in the browser's log: a step that did not go through."""
    return [e["message"][:300] for e in driver.get_log("browser") if "AriaNg Warn" in e["message"]]
