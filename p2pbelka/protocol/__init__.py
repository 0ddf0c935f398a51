"""The wire protocol: message bodies, the msgpack codec, signed envelopes, the transcript.

Sans-IO: nothing here touches a socket, a clock or trio.  ``protocol/SPEC.md``
at the top of the repository is the normative description.
"""

from p2pbelka.protocol.codec import ProtocolError
from p2pbelka.protocol.envelope import Envelope, Signer, open_envelope, seal_envelope

__all__ = ["Envelope", "ProtocolError", "Signer", "open_envelope", "seal_envelope"]
