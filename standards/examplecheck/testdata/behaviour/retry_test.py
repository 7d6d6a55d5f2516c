"""Runs the Python retry example of failure-modes/retries-with-backoff.md
against httpx's MockTransport: the example's file is the first argument."""
import sys
import unittest

import httpx

namespace = {}
with open(sys.argv[1]) as f:
    exec(compile(f.read(), sys.argv[1], "exec"), namespace)
retry = namespace["retry"]


def client_failing_with(*outcomes):
    """A client whose requests meet the outcomes in order: an exception class to raise, or a status."""
    calls = []

    def handler(request):
        outcome = outcomes[len(calls)]
        calls.append(outcome)
        if isinstance(outcome, type):
            raise outcome("simulated", request=request)
        return httpx.Response(outcome)

    return httpx.Client(transport=httpx.MockTransport(handler)), calls


class RetryExample(unittest.TestCase):
    def test_retries_httpx_transport_errors_until_success(self):
        client, calls = client_failing_with(httpx.ConnectError, httpx.ReadTimeout, 503, 200)
        response = retry(lambda: client.get("https://api.test/"), attempts=4, base=0.001)
        self.assertEqual(response.status_code, 200)
        self.assertEqual(len(calls), 4)

    def test_raises_the_last_transport_error_when_attempts_run_out(self):
        client, calls = client_failing_with(httpx.ConnectError, httpx.ConnectError)
        with self.assertRaises(httpx.ConnectError):
            retry(lambda: client.get("https://api.test/"), attempts=2, base=0.001)
        self.assertEqual(len(calls), 2)

    def test_does_not_retry_a_client_error(self):
        client, calls = client_failing_with(404, 200)
        response = retry(lambda: client.get("https://api.test/"), attempts=4, base=0.001)
        self.assertEqual(response.status_code, 404)
        self.assertEqual(len(calls), 1)

    def test_does_not_retry_a_setup_mistake(self):
        client, calls = client_failing_with(httpx.UnsupportedProtocol, 200)
        with self.assertRaises(httpx.UnsupportedProtocol):
            retry(lambda: client.get("https://api.test/"), attempts=4, base=0.001)
        self.assertEqual(len(calls), 1)

    def test_httpx_errors_are_not_the_builtins(self):
        # Why the example does not catch ConnectionError/TimeoutError.
        self.assertFalse(issubclass(httpx.ConnectError, ConnectionError))
        self.assertFalse(issubclass(httpx.ReadTimeout, TimeoutError))


if __name__ == "__main__":
    unittest.main(argv=sys.argv[:1])
