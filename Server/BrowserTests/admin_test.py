"""The admin page in headless Chromium (Debian's chromium and chromedriver, Selenium from PyPI):
sign in, create a link with its deep link checked as it is typed, follow the link, and see its
click count rise. Saves screenshots of the main screens when given a folder.

    python admin_test.py BASE_URL TOKEN [SCREENSHOT_FOLDER]
"""
import os
import sys
import time

from selenium import webdriver
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.by import By
from selenium.webdriver.support import expected_conditions as ec
from selenium.webdriver.support.ui import WebDriverWait

base, token = sys.argv[1], sys.argv[2]
shots = sys.argv[3] if len(sys.argv) > 3 else None


def shot(driver, name):
    if shots:
        driver.save_screenshot(os.path.join(shots, name))


options = webdriver.ChromeOptions()
options.binary_location = "/usr/bin/chromium"
for argument in ["--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--window-size=1100,900",
                 "--no-first-run", "--disable-background-networking", "--disable-component-update"]:
    options.add_argument(argument)
driver = webdriver.Chrome(service=Service("/usr/bin/chromedriver"), options=options)
driver.set_page_load_timeout(20)
wait = WebDriverWait(driver, 10)
try:
    # Sign in.
    driver.get(base + "/admin")
    wait.until(ec.presence_of_element_located((By.ID, "token")))
    shot(driver, "admin-sign-in.png")
    driver.find_element(By.ID, "token").send_keys(token)
    driver.find_element(By.ID, "sign-in").click()
    wait.until(ec.presence_of_element_located((By.ID, "new-link")))
    cookie = driver.get_cookie("wl_admin")
    assert cookie, "no session cookie"
    assert cookie["httpOnly"] and cookie["secure"] and cookie["sameSite"] == "Strict", cookie
    assert driver.execute_script("return document.cookie") == "", "the session cookie is readable by scripts"

    # Create a link: the deep link is checked against the manifest's routes as it is typed.
    driver.find_element(By.ID, "new-link").click()
    field = wait.until(ec.presence_of_element_located((By.ID, "deepLink")))
    driver.find_element(By.ID, "code").send_keys("browser-spring")
    field.send_keys("readapp://nowhere/1")
    wait.until(ec.text_to_be_present_in_element_attribute((By.ID, "deepLink-check"), "class", "bad"))
    field.clear()
    field.send_keys("readapp://books/42")
    wait.until(ec.text_to_be_present_in_element((By.ID, "deepLink-check"), "Opens the route book"))
    driver.find_element(By.ID, "title").send_keys("Spring <sale> & more")
    shot(driver, "admin-new-link.png")
    driver.find_element(By.ID, "save").click()
    wait.until(ec.text_to_be_present_in_element((By.ID, "total-clicks"), "0"))

    # Follow it, as a desktop browser: the landing page (the link has no web fallback).
    driver.get(base + "/browser-spring")
    assert "Spring &lt;sale&gt; &amp; more" in driver.page_source or "Spring <sale> & more" in driver.find_element(By.TAG_NAME, "h1").text

    # The count rises once the click is written (about a second).
    deadline = time.time() + 15
    clicks = "0"
    while time.time() < deadline:
        driver.get(base + "/admin/links/browser-spring")
        clicks = wait.until(ec.presence_of_element_located((By.ID, "total-clicks"))).text
        if clicks == "1":
            break
        time.sleep(0.5)
    assert clicks == "1", "the click count stayed at " + clicks
    assert driver.find_elements(By.ID, "chart"), "no chart"
    platforms = driver.find_element(By.ID, "by-platform").text
    assert "desktop 1" in platforms, platforms
    # The QR code shows, drawn by the service, with its downloads.
    qr = driver.find_element(By.ID, "qr")
    assert driver.execute_script("return arguments[0].complete && arguments[0].naturalWidth", qr) == 160, "no QR image"
    assert driver.find_element(By.ID, "qr-png").get_attribute("download") == "browser-spring-qr.png"
    # A typed address sends no Referer.
    referrers = driver.find_element(By.ID, "by-referrer").text
    assert "(direct) 1" in referrers, referrers
    shot(driver, "admin-link.png")

    # The list, searched.
    driver.get(base + "/admin?q=spring")
    rows = driver.find_elements(By.CSS_SELECTOR, "#links tbody tr")
    assert len(rows) == 1 and "browser-spring" in rows[0].text, [row.text for row in rows]
    shot(driver, "admin-list.png")
    # Per-platform targets and the query switch: saved, and shown again as saved.
    driver.get(base + "/admin/links/browser-spring")
    desktop = wait.until(ec.presence_of_element_located((By.ID, "desktop")))
    assert driver.find_element(By.ID, "passQuery").is_selected(), "a link passes its visits' query by default"
    desktop.send_keys("https://www.marketing.example/spring?ref=site")
    driver.find_element(By.ID, "android").send_keys("http://not-https.example/")
    driver.find_element(By.ID, "save").click()
    error = wait.until(ec.presence_of_element_located((By.ID, "error"))).text
    assert "fallbacks.android must be an https URL" in error, error
    driver.find_element(By.ID, "android").clear()
    driver.find_element(By.ID, "passQuery").click()
    driver.find_element(By.ID, "save").click()
    wait.until(ec.presence_of_element_located((By.ID, "total-clicks")))
    driver.get(base + "/admin/links/browser-spring")
    value = wait.until(ec.presence_of_element_located((By.ID, "desktop"))).get_attribute("value")
    assert value == "https://www.marketing.example/spring?ref=site", value
    assert not driver.find_element(By.ID, "passQuery").is_selected(), "passQuery was not saved off"
    print("browser test passed: signed in, created a link with live validation, followed it, clicks 0 -> 1, "
          + "per-platform targets and the query switch saved")
finally:
    driver.quit()
