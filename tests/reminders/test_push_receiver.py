"""The test receiver's own checks can fail: its decryption reproduces RFC 8291's example
(Appendix A) and refuses a tampered message; its VAPID check refuses a wrong key, a
wrong audience and a forged signature."""

from __future__ import annotations

import time

import pytest
from cryptography.exceptions import InvalidTag
from cryptography.hazmat.primitives.asymmetric import ec
from py_vapid import Vapid

from tests.reminders.push_receiver import b64d, b64e, check_vapid, decrypt_aes128gcm

# RFC 8291, Section 5 and Appendix A.
RFC_PLAINTEXT = b"When I grow up, I want to be a watermelon"
RFC_UA_PRIVATE = "q1dXpw3UpT5VOmu_cf_v6ih07Aems3njxI-JWgLcM94"
RFC_UA_PUBLIC = ("BCVxsr7N_eNgVRqvHtD0zTZsEc6-VV-JvLexhqUzORcxaOzi6-AYWXvTBHm4bjyPjs7Vd8pZ"
                 "GH6SRpkNtoIAiw4")
RFC_AUTH = "BTBZMqHH6r4Tts7J_aSIgg"
RFC_BODY = ("DGv6ra1nlYgDCS1FRnbzlwAAEABBBP4z9KsN6nGRTbVYI_c7VJSPQTBtkgcy27mlmlMoZIIg"
            "Dll6e3vCYLocInmYWAmS6TlzAC8wEqKK6PBru3jl7A_yl95bQpu6cVPTpK4Mqgkf1CXztLVBSt2Ks3"
            "oZwbuwXPXLWyouBWLVWGNWQexSgSxsj_Qulcy4a-fN")


def _rfc_ua_key() -> ec.EllipticCurvePrivateKey:
    key = ec.derive_private_key(int.from_bytes(b64d(RFC_UA_PRIVATE), "big"), ec.SECP256R1())
    from cryptography.hazmat.primitives import serialization
    point = key.public_key().public_bytes(serialization.Encoding.X962,
                                          serialization.PublicFormat.UncompressedPoint)
    assert b64e(point) == RFC_UA_PUBLIC
    return key


def test_decryption_reproduces_the_rfc_8291_example() -> None:
    assert decrypt_aes128gcm(b64d(RFC_BODY), _rfc_ua_key(), b64d(RFC_AUTH)) == RFC_PLAINTEXT


def test_decryption_refuses_a_changed_byte_or_another_secret() -> None:
    body = bytearray(b64d(RFC_BODY))
    body[-1] ^= 1
    with pytest.raises(InvalidTag):
        decrypt_aes128gcm(bytes(body), _rfc_ua_key(), b64d(RFC_AUTH))
    with pytest.raises(InvalidTag):
        decrypt_aes128gcm(b64d(RFC_BODY), _rfc_ua_key(), bytes(16))


def _header(key: ec.EllipticCurvePrivateKey, aud: str, exp: int | None = None) -> str:
    claims = {"aud": aud, "exp": exp or int(time.time()) + 3600, "sub": "mailto:ops@dice.example"}
    return Vapid(private_key=key).sign(claims)["Authorization"]


def test_vapid_check_accepts_a_good_header_and_refuses_bad_ones() -> None:
    key, other = ec.generate_private_key(ec.SECP256R1()), ec.generate_private_key(ec.SECP256R1())
    from cryptography.hazmat.primitives import serialization
    public = b64e(key.public_key().public_bytes(serialization.Encoding.X962,
                                                serialization.PublicFormat.UncompressedPoint))
    aud = "http://127.0.0.1:9"
    assert check_vapid(_header(key, aud), aud, public)["sub"] == "mailto:ops@dice.example"
    with pytest.raises(ValueError, match="not the server's"):
        check_vapid(_header(other, aud), aud, public)
    with pytest.raises(ValueError, match="aud"):
        check_vapid(_header(key, "http://elsewhere"), aud, public)
    with pytest.raises(ValueError, match="exp"):
        check_vapid(_header(key, aud, int(time.time()) + 90000), aud, public)
    good = _header(key, aud)
    forged = good.replace("t=", "t=" + "x", 1)  # another header segment
    with pytest.raises(ValueError):
        check_vapid(forged, aud, public)
    token = good.split("t=")[1].split(",")[0]
    sig = token.split(".")[2]
    swapped = good.replace(sig, b64e(bytes(64)))
    with pytest.raises(ValueError, match="does not verify"):
        check_vapid(swapped, aud, public)
