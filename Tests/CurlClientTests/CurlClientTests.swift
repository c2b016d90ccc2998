import CCurl
import CLazyLibraries
import CurlClient
import Foundation
import LocalTestSupport
import Testing

/// The shared libcurl client's failures, against loopback sockets this test opens itself.
@Suite("CurlClient: errors keep the CURLcode, cancellation stops a transfer, bodies are read from disk")
struct CurlClientTests {
    @Test("libcurl is reached through CLazyLibraries' trampolines, which loaded it on the first call")
    func loadedOnFirstCall() throws {
        let version = try #require(curl_version())
        #expect(String(cString: version).hasPrefix("libcurl/"))
        #expect(clazy_libraries_loaded("libcurl.so.4") == 1)
        #expect(clazy_libraries_loaded("libvips.so.42") == 0)
    }

    @Test("a refused connection keeps CURLE_COULDNT_CONNECT, curl's text and its detail, and never reached the server")
    func refused() throws {
        let port = try Loopback.freePort()
        #expect {
            _ = try CurlClient.perform(CurlTransfer(url: "http://127.0.0.1:\(port)/", connectTimeout: 10))
        } throws: { error in
            guard let error = error as? CurlError else { return false }
            return error.code == CURLE_COULDNT_CONNECT && error.text == String(cString: curl_easy_strerror(CURLE_COULDNT_CONNECT))
                && error.detail.contains("\(port)") && error.neverConnected && !error.isCancelled
        }
    }

    @Test("a cancelled transfer to a server that never answers ends as cancelled (CURLE_ABORTED_BY_CALLBACK)")
    func cancelled() throws {
        let socket = try Loopback.Socket(listening: true)
        defer { socket.close() }
        let cancellation = CurlCancellation()
        cancellation.cancel()
        #expect {
            _ = try CurlClient.perform(
                CurlTransfer(url: "http://127.0.0.1:\(socket.port)/", connectTimeout: 10), cancellation: cancellation)
        } throws: { error in
            (error as? CurlError)?.code == CURLE_ABORTED_BY_CALLBACK && (error as? CurlError)?.isCancelled == true
        }
    }

    @Test("cancelling the task of an async send stops its transfer on its own thread: CancellationError")
    func taskCancelled() async throws {
        let socket = try Loopback.Socket(listening: true)
        defer { socket.close() }
        let transfer = CurlTransfer(url: "http://127.0.0.1:\(socket.port)/", connectTimeout: 10)
        let task = Task { try await CurlClient.send(transfer) }
        task.cancel()
        await #expect(throws: CancellationError.self) { try await task.value }
    }

    @Test("a form whose file cannot be read fails before sending, naming the file")
    func unreadableFormFile() throws {
        let missing = URL(fileURLWithPath: "/nonexistent/\(UUID().uuidString).png")
        let transfer = CurlTransfer(
            url: "http://127.0.0.1:9/", method: "POST",
            body: .form([.field(name: "a", value: "b"), .file(name: "file", filename: "x.png", mimeType: "image/png", url: missing)]))
        #expect {
            _ = try CurlClient.perform(transfer)
        } throws: { error in
            guard let error = error as? CurlError else { return false }
            return error.code == CURLE_READ_ERROR && error.readFailure?.contains(missing.path) == true
        }
    }
}
