"""The library page lists the sample clips with artwork, duration and badges, and searches."""
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import WebDriverWait


def cards(driver):
    return driver.find_elements(By.CSS_SELECTOR, ".asset-card")


def test_library_lists_the_samples(server, driver):
    driver.get(server.url + "/")
    WebDriverWait(driver, 10).until(lambda d: len(cards(d)) == 3)
    titles = [c.find_element(By.TAG_NAME, "h2").text for c in cards(driver)]
    assert sorted(titles) == ["Code Walkthrough", "Portrait Clip", "Test Pattern Tour"]
    tour = next(c for c in cards(driver) if "Test Pattern Tour" in c.text)
    badges = [b.text for b in tour.find_elements(By.CSS_SELECTOR, ".badge")]
    assert "HD" in badges and "CC" in badges
    assert tour.find_element(By.CSS_SELECTOR, ".duration").text == "0:30"
    artwork = tour.find_element(By.CSS_SELECTOR, ".artwork").value_of_css_property("background-image")
    assert "poster.jpg" in artwork
    link = tour.find_element(By.TAG_NAME, "a").get_attribute("href")
    assert "/watch/" in link
    # The artwork really is an image the server serves as JPEG.
    assert driver.execute_async_script(
        "const done = arguments[arguments.length - 1]; const img = new Image(); img.onload = () => done(img.naturalWidth); img.onerror = () => done(0);"
        "img.src = arguments[0];", artwork.split('"')[1]) >= 640


def test_search_narrows_the_list(server, driver):
    driver.get(server.url + "/")
    WebDriverWait(driver, 10).until(lambda d: len(cards(d)) == 3)
    search = driver.find_element(By.ID, "search")
    search.send_keys("portrait")
    WebDriverWait(driver, 5).until(lambda d: len(cards(d)) == 1)
    assert "Portrait Clip" in cards(driver)[0].text
    search.clear()
    search.send_keys("no such thing")
    WebDriverWait(driver, 5).until(lambda d: len(cards(d)) == 0)
    assert "no such thing" in driver.find_element(By.ID, "library-status").text


def test_a_card_opens_the_player(server, driver):
    driver.get(server.url + "/")
    WebDriverWait(driver, 10).until(lambda d: len(cards(d)) == 3)
    next(c for c in cards(driver) if "Portrait Clip" in c.text).find_element(By.TAG_NAME, "a").click()
    WebDriverWait(driver, 10).until(lambda d: d.execute_script("return document.getElementById('video')?.readyState >= 2"))
    assert driver.find_element(By.ID, "title").text == "Portrait Clip"
