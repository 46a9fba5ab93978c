import pytest
from tests.pages.test_readable_text import visible
pytestmark = pytest.mark.django_db

def test_show(web_client, played_campaign, uma, alice):
    out = open("/tmp/readable/hist.txt", "w")
    for u in (uma, alice):
        html = web_client(u).get(f"/campaigns/{played_campaign.pk}/history/").content.decode()
        out.write(visible(html).split("Timeline")[-1][:6000] + "\n=====\n")
        md = web_client(u).get(f"/campaigns/{played_campaign.pk}/history/turn-1.md")
        out.write(str(md.status_code) + md.content.decode()[:3000] + "\n=====\n")
