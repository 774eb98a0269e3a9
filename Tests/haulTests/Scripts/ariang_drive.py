"""Drives AriaNg 1.3.2 (../shared/clients/ariang) in headless Chromium against an aria2 RPC
daemon, as a user would, and prints one JSON object of what it saw.

usage: ariang_drive.py ARIANG_DIR RPC_PORT SECRET PAUSED_GID PAUSED_NAME FAILED_NAME NEW_URL NEW_NAME

AriaNg is opened from its file, as its users open it (its Origin is then `null`: the daemon, with
a secret, serves it as aria2c does). Its RPC settings go into localStorage (AriaNg.Options), then:
- Aria2 Settings, Basic: max-concurrent-downloads set to 3 and check-integrity to True, seen kept
  after a reload (continue, the page's other switch, is haul's owner's alone: docs/safety.md);
- PAUSED_GID's page, its Settings tab: split set to 2, seen kept after a reload;
- the waiting list shows PAUSED_NAME; it is selected and started with the toolbar's start button;
- the finished list shows FAILED_NAME; its Retry link, confirmed, adds it again;
- New, the URL typed, on the Options tab max-download-limit 1M and file-allocation none (an
  option haul does not implement, which aria2 accepts), Download Now: NEW_NAME appears in a list.
"""
import json
import sys
import time

from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.support.ui import Select

from ariang_browser import open_page, start, wait_for, warnings
import ariang_browser

ariang, port, secret, paused_gid, paused, failed, new_url, new_name = sys.argv[1:9]

driver, page = start(ariang, port, secret)
seen = {}


def body():
    return ariang_browser.body(driver)


def open_list(name):
    open_page(driver, page, name)


def option_field(name):
    """The input or select of the option row labelled "… (NAME)" on a settings page."""
    for field in driver.find_elements(By.CSS_SELECTOR, "[ng-model='optionValue']"):
        row = field.find_element(By.XPATH, "./ancestor::div[contains(@class,'row')][1]")
        if field.is_displayed() and "(%s)" % name in row.text.split("\n")[0]:
            return field
    return None


def set_option(name, value):
    """Types VALUE into option NAME's field (or picks it in its list) as a user does; AriaNg
    sends the change a moment after the last key."""
    wait_for(lambda: option_field(name) is not None)
    field = option_field(name)
    if field.tag_name == "select":
        Select(field).select_by_visible_text(value)
    else:
        field.send_keys(Keys.CONTROL, "a")
        field.send_keys(value, Keys.TAB)
    time.sleep(1.5)


def shown_option(name):
    """What option NAME's field shows once the page has its values."""
    wait_for(lambda: option_field(name) is not None and (option_field(name).get_attribute("value") or "") != "")
    field = option_field(name)
    if field is None:
        return None
    if field.tag_name == "select":
        return Select(field).first_selected_option.text
    return field.get_attribute("value")


def open_task_settings(gid):
    open_list("task/detail/" + gid)
    wait_for(lambda: driver.find_element(By.CSS_SELECTOR, "[ng-click=\"changeTab('settings')\"]").is_displayed())
    driver.find_element(By.CSS_SELECTOR, "[ng-click=\"changeTab('settings')\"]").click()


try:
    open_list("settings/aria2/basic")
    seen["connected"] = wait_for(lambda: "Connected" in body())
    set_option("max-concurrent-downloads", "3")
    set_option("check-integrity", "True")
    open_list("settings/aria2/basic")
    seen["global_kept"] = [shown_option("max-concurrent-downloads"), shown_option("check-integrity")]

    open_task_settings(paused_gid)
    set_option("split", "2")
    open_task_settings(paused_gid)
    seen["download_option_kept"] = shown_option("split")

    open_list("waiting")
    seen["waiting_lists_paused"] = wait_for(lambda: paused in body() and "Paused" in body())
    row = [e for e in driver.find_elements(By.CSS_SELECTOR, "[ng-click]") if paused in e.text]
    if row:
        row[0].click()
        start = driver.find_element(By.CSS_SELECTOR, "[ng-click=\"changeTasksState('start')\"]")
        start.click()
        seen["paused_started"] = wait_for(lambda: paused not in body())

    open_list("stopped")
    seen["stopped_lists_failed"] = wait_for(lambda: failed in body())
    # The Retry link of FAILED_NAME's row (the list is newest first, and has others).
    rows = [e for e in driver.find_elements(By.CSS_SELECTOR, "[ng-click]") if failed in e.text
            and "taskContext.selected" in (e.get_attribute("ng-click") or "")]
    retry = [e for row in rows for e in row.find_elements(By.CSS_SELECTOR, "[ng-click='retryTask(task)']")
             if e.is_displayed()]
    if retry:
        retry[0].click()
        # AriaNg asks first ("Confirm Retry"): OK, once the dialog has faded in (a click while
        # it fades is lost).
        def confirm():
            buttons = [b for b in driver.find_elements(By.TAG_NAME, "button") if b.is_displayed() and b.text == "OK"]
            if buttons:
                time.sleep(0.8)
                buttons[0].click()
            return bool(buttons)
        seen["retried"] = wait_for(confirm)
        # Once added again, AriaNg shows the downloading list (its afterRetryingTask setting).
        wait_for(lambda: "downloading" in driver.current_url, seconds=5)

    open_list("new")
    wait_for(lambda: driver.find_elements(By.CSS_SELECTOR, "textarea[ng-model='context.urls']"))
    driver.find_element(By.CSS_SELECTOR, "textarea[ng-model='context.urls']").send_keys(new_url)
    driver.find_element(By.CSS_SELECTOR, "[ng-click=\"changeTab('options')\"]").click()
    set_option("max-download-limit", "1M")
    set_option("file-allocation", "None")
    [b for b in driver.find_elements(By.TAG_NAME, "button") if b.text == "Download Now"][0].click()
    open_list("stopped")
    seen["new_download_listed"] = wait_for(lambda: new_name in body())
    seen["error_dialog"] = "Cannot connect to aria2" in body()
    # AriaNg's own warnings, for a step that did not go through.
    seen["warnings"] = warnings(driver)
finally:
    driver.quit()
print(json.dumps(seen))
