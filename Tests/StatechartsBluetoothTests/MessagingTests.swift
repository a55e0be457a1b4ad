import Foundation
import PropertyBased
import Testing

@testable import StatechartsBluetooth

/// Messages over the simulated link: sizes, lengths, overlapping requests, faults.
@Suite("Messaging", .timeLimit(.minutes(3)))
struct MessagingTests {
    typealias Rig = ConnectionRig

    static func bytes(_ count: Int, seed: UInt8 = 7) -> Data {
        Data((0..<count).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ Int(seed)) })
    }

    func readyRig(
        writeLength: Int = 182, respond: @escaping @Sendable (Data) -> SimulatedPeripheral.Reply? = { .init($0) }
    )
        async throws -> Rig
    {
        let device = Rig.defaultDevice(writeLength: writeLength, respond: respond)
        let rig = try await Rig.make(remembered: Rig.deviceID, device: device)
        await rig.advance(by: .milliseconds(300))
        #expect(await rig.states == [.ready])
        return rig
    }

    @Test(
        "a request and its echoed answer arrive whole, from 1 byte to 1 MiB, over write lengths from 20 to 512",
        arguments: [
            (1, 20), (12, 20), (13, 20), (1_000, 20), (1 << 20, 20), (100_000, 185), (65_536, 244), (1 << 20, 512),
        ])
    func roundTrip(size: Int, writeLength: Int) async throws {
        let rig = try await readyRig(writeLength: writeLength)
        let message = Self.bytes(size)
        let answer = try await rig.connection.messenger.request(message)
        #expect(answer == message)
        #expect(rig.device.receivedRequests == [message])
    }

    @Test func aPlainMessageReachesThePeripheralsAppWhole() async throws {
        let rig = try await readyRig(writeLength: 20)
        try await rig.connection.messenger.send(Self.bytes(5_000))
        try await rig.connection.messenger.send(Data())
        #expect(rig.device.receivedMessages == [Self.bytes(5_000), Data()])
    }

    @Test func aMessageFromThePeripheralArrivesInTheInbox() async throws {
        let rig = try await readyRig(writeLength: 23)
        var inbox = rig.connection.messenger.inbox.makeAsyncIterator()
        let message = Data(#"{"temperature": 21.5, "unit": "C"}"#.utf8)
        rig.central.send(message, from: Rig.deviceID)
        #expect(await inbox.next() == .message(Messenger.Message(id: 1, isRequest: false, payload: message)))
        // A request from the peripheral, answered by the app.
        rig.central.send(Data("ping".utf8), from: Rig.deviceID, asRequest: true)
        guard case .message(let request) = await inbox.next() else {
            Issue.record("no request arrived")
            return
        }
        #expect(request.isRequest)
        try await rig.connection.messenger.respond(to: request, with: Data("pong".utf8))
    }

    @Test func overlappingRequestsGetTheirOwnAnswersWhateverOrderTheAnswersComeIn() async throws {
        // The peripheral answers later requests sooner: request n waits (6 - n) × 100 ms.
        let rig = try await readyRig(writeLength: 20) { request in
            let number = Int(String(decoding: request, as: UTF8.self).split(separator: " ").last ?? "") ?? 0
            return .init(Data("answer to \(number)".utf8), after: .milliseconds(100 * (6 - number)))
        }
        let messenger = rig.connection.messenger
        let answers = try await withThrowingTaskGroup(of: (Int, String).self) { group in
            for number in 1...5 {
                group.addTask {
                    let answer = try await messenger.request(Data("question \(number)".utf8))
                    return (number, String(decoding: answer, as: UTF8.self))
                }
            }
            // Let every request out, then run the clock through the answers.
            try #require(
                await eventually { messenger.pendingRequestCount == 5 && rig.device.receivedRequests.count == 5 })
            await rig.advance(by: .seconds(1))
            var answers: [Int: String] = [:]
            for try await (number, answer) in group { answers[number] = answer }
            return answers
        }
        #expect(answers == Dictionary(uniqueKeysWithValues: (1...5).map { ($0, "answer to \($0)") }))
    }

    @Test func aMessageCutByADisconnectFailsAndIsNeverHalfDelivered() async throws {
        let rig = try await readyRig(writeLength: 20)
        rig.central.cutConnection(to: Rig.deviceID, afterChunks: 50, error: BluetoothError(.connectionTimeout))
        await #expect(throws: MessagingError.disconnected) {
            try await rig.connection.messenger.send(Self.bytes(10_000))
        }
        #expect(rig.device.receivedMessages.isEmpty, "nothing of it reached the peripheral's app")
        #expect(rig.device.droppedMessages == [.disconnected])
        await rig.settle()
        #expect(await rig.states == [.waitingForReturn])
    }

    @Test func anIncomingMessageCutByADisconnectIsReportedAsFailed() async throws {
        let rig = try await readyRig(writeLength: 20)
        var inbox = rig.connection.messenger.inbox.makeAsyncIterator()
        rig.central.cutConnection(to: Rig.deviceID, afterChunks: 10, error: BluetoothError(.peripheralDisconnected))
        rig.central.send(Self.bytes(1_000), from: Rig.deviceID)
        #expect(await inbox.next() == .failed(messageID: 1, .disconnected))
        // The link comes back; the next message is whole.
        await rig.advance(by: .milliseconds(300))
        #expect(await rig.states == [.ready])
        rig.central.send(Self.bytes(300), from: Rig.deviceID)
        #expect(await inbox.next() == .message(Messenger.Message(id: 2, isRequest: false, payload: Self.bytes(300))))
    }

    @Test func aRequestOutstandingWhenTheLinkDropsFails() async throws {
        let rig = try await readyRig { _ in .init(Data("late".utf8), after: .seconds(2)) }
        let messenger = rig.connection.messenger
        let answer = Task { try await messenger.request(Data("question".utf8)) }
        try #require(await eventually { messenger.pendingRequestCount > 0 && !rig.device.receivedRequests.isEmpty })
        rig.central.moveOutOfRange(Rig.deviceID)
        await rig.settle()
        await #expect(throws: MessagingError.disconnected) { try await answer.value }
    }

    @Test func cancellingTheWaitingTaskEndsTheRequest() async throws {
        let rig = try await readyRig { _ in nil }
        let messenger = rig.connection.messenger
        let answer = Task { try await messenger.request(Data("anyone?".utf8)) }
        try #require(await eventually { messenger.pendingRequestCount == 1 && !rig.device.receivedRequests.isEmpty })
        answer.cancel()
        await #expect(throws: MessagingError.cancelled) { try await answer.value }
        #expect(messenger.pendingRequestCount == 0, "the request is forgotten")
        // Cancelled before it starts: it never goes out.
        let early = Task {
            withUnsafeCurrentTask { $0?.cancel() }
            return try await messenger.request(Data("never".utf8))
        }
        await #expect(throws: MessagingError.cancelled) { try await early.value }
        #expect(messenger.pendingRequestCount == 0)
    }

    @Test func anUnansweredRequestTimesOut() async throws {
        let rig = try await readyRig { _ in nil }
        let messenger = rig.connection.messenger
        let answer = Task { try await messenger.request(Data("anyone?".utf8), timeout: .seconds(2)) }
        try #require(await eventually { messenger.pendingRequestCount > 0 && !rig.device.receivedRequests.isEmpty })
        await rig.advance(by: .milliseconds(1_990))
        #expect(messenger.pendingRequestCount == 1)
        await rig.advance(by: .milliseconds(20))
        await #expect(throws: MessagingError.timedOut(requestID: 1)) { try await answer.value }
    }

    @Test func aLostIncomingChunkDropsTheMessageAndSaysWhich() async throws {
        let rig = try await readyRig(writeLength: 20)
        var inbox = rig.connection.messenger.inbox.makeAsyncIterator()
        rig.central.loseNotificationChunk(from: Rig.deviceID, number: 3)
        rig.central.send(Self.bytes(200), from: Rig.deviceID)
        #expect(await inbox.next() == .failed(messageID: 1, .lostChunk(messageID: 1, expected: 2, received: 3)))
        rig.central.send(Self.bytes(50), from: Rig.deviceID)
        #expect(await inbox.next() == .message(Messenger.Message(id: 2, isRequest: false, payload: Self.bytes(50))))
    }

    @Test func aLostOutgoingChunkLeavesTheRequestUnansweredUntilItsTimeout() async throws {
        let rig = try await readyRig(writeLength: 20)
        rig.central.loseWrittenChunk(to: Rig.deviceID, number: 2)
        let messenger = rig.connection.messenger
        let answer = Task { try await messenger.request(Self.bytes(100), timeout: .seconds(1)) }
        try #require(await eventually { !rig.device.droppedMessages.isEmpty })
        #expect(rig.device.receivedRequests.isEmpty)
        await rig.advance(by: .seconds(1))
        await #expect(throws: MessagingError.timedOut(requestID: 1)) { try await answer.value }
    }

    @Test func limitsGiveClearErrors() async throws {
        let notReady = try await Rig.make()
        await #expect(throws: MessagingError.notConnected) { try await notReady.connection.messenger.send(Data([1])) }

        let rig = try await readyRig()
        let limit = Rig.configuration.maximumMessageLength
        await #expect(throws: MessagingError.tooLarge(size: limit + 1, limit: limit)) {
            try await rig.connection.messenger.send(Data(count: limit + 1))
        }
        #expect(
            MessagingError.tooLarge(size: limit + 1, limit: limit).description
                == "a message of 4194305 bytes is over the limit of 4194304 bytes")

        // A link whose writes cannot hold a chunk's headers is reported, and not used.
        let tiny = try await readyRig(writeLength: 12)
        var inbox = tiny.connection.messenger.inbox.makeAsyncIterator()
        #expect(await inbox.next() == .failed(messageID: nil, .chunkLengthTooSmall(length: 12, minimum: 14)))
        await #expect(throws: MessagingError.notConnected) { try await tiny.connection.messenger.send(Data([1])) }
    }
}

/// The wire format on its own: properties over random messages and chunk lengths.
@Suite struct FramingTests {
    static let messages = Gen.int(in: 0...3_000).array(of: 1...6)
    static let chunkLength = Gen.int(in: MessageFrame.minimumChunkLength...600)

    /// The chunks of several messages, interleaved by `tape` but each message's in order.
    static func interleave(_ chunks: [[Data]], by tape: [Int]) -> [Data] {
        var queues = chunks
        var result: [Data] = []
        var turn = 0
        while queues.contains(where: { !$0.isEmpty }) {
            let open = queues.indices.filter { !queues[$0].isEmpty }
            let pick = open[(tape.isEmpty ? 0 : tape[turn % tape.count]) % open.count]
            result.append(queues[pick].removeFirst())
            turn += 1
        }
        return result
    }

    @Test func interleavedChunksOfAnySizeReassembleIntoTheMessagesSent() async {
        await propertyCheck(count: 200, input: Self.messages, Self.chunkLength, Gen.int(in: 0...99).array(of: 1...20)) {
            sizes, length, tape in
            guard let chunker = try? MessageChunker(chunkLength: length, maximumMessageLength: 1 << 20) else {
                Issue.record("length \(length) refused")
                return
            }
            let messages = sizes.enumerated().map { MessagingTests.bytes($0.element, seed: UInt8($0.offset)) }
            let chunks = messages.enumerated().map { index, message in
                (try? chunker.chunks(of: message, kind: .message, id: UInt16(index))) ?? []
            }
            #expect(chunks.allSatisfy { $0.allSatisfy { $0.count <= length } }, "every chunk fits")
            var reassembler = MessageReassembler(maximumMessageLength: 1 << 20)
            var received: [UInt16: Data] = [:]
            for chunk in Self.interleave(chunks, by: tape) {
                for outcome in reassembler.receive(chunk) {
                    guard case .message(let message) = outcome else {
                        Issue.record("unexpected \(outcome)")
                        continue
                    }
                    received[message.id] = message.payload
                }
            }
            #expect(received.count == messages.count)
            for (index, message) in messages.enumerated() { #expect(received[UInt16(index)] == message) }
            #expect(reassembler.pendingCount == 0)
        }
    }

    @Test func aLostChunkIsReportedAndNoWrongMessageIsEverDelivered() async {
        await propertyCheck(count: 200, input: Gen.int(in: 1...3_000), Self.chunkLength, Gen.int(in: 0...10_000)) {
            size, length, lostPick in
            guard let chunker = try? MessageChunker(chunkLength: length, maximumMessageLength: 1 << 20),
                let chunks = try? chunker.chunks(of: MessagingTests.bytes(size), kind: .request, id: 9)
            else {
                Issue.record("could not chunk")
                return
            }
            guard chunks.count > 1 else { return }
            let lost = lostPick % chunks.count
            var reassembler = MessageReassembler(maximumMessageLength: 1 << 20)
            var outcomes: [MessageReassembler.Outcome] = []
            for (index, chunk) in chunks.enumerated() where index != lost {
                outcomes += reassembler.receive(chunk)
            }
            #expect(!outcomes.contains { if case .message = $0 { true } else { false } }, "never delivered")
            if lost < chunks.count - 1 {
                #expect(outcomes.count == 1, "the gap is reported once")
            }
        }
    }

    @Test func aMessageAnnouncedOverTheLimitIsRefusedBeforeItIsBuffered() throws {
        let chunker = try MessageChunker(chunkLength: 100, maximumMessageLength: 10_000)
        let chunks = try chunker.chunks(of: Data(count: 5_000), kind: .message, id: 3)
        var reassembler = MessageReassembler(maximumMessageLength: 1_000)
        #expect(reassembler.receive(chunks[0]) == [.failed(id: 3, .tooLarge(size: 5_000, limit: 1_000))])
        #expect(reassembler.receive(chunks[1]) == [], "the rest of a refused message is ignored quietly")
        #expect(reassembler.pendingCount == 0)
    }

    @Test func malformedChunksAreReportedNotTrusted() {
        var reassembler = MessageReassembler(maximumMessageLength: 1_000)
        #expect(
            reassembler.receive(Data([0x00, 0x01])) == [
                .failed(id: nil, .malformedChunk("a chunk of 2 bytes is shorter than its 7-byte header"))
            ])
        #expect(
            reassembler.receive(Data([0x7C, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0])) == [
                .failed(id: nil, .malformedChunk("unknown flags 0x7c"))
            ])
        #expect(throws: MessagingError.chunkLengthTooSmall(length: 13, minimum: 14)) {
            try MessageChunker(chunkLength: 13, maximumMessageLength: 100)
        }
    }
}

/// The messenger takes chunks only from the peripheral it is linked to.
@Suite struct MessengerLinkTests {
    @Test func chunksFromAnotherPeripheralAreIgnored() async throws {
        let rig = try await ConnectionRig.make(remembered: ConnectionRig.deviceID)
        await rig.advance(by: .milliseconds(300))
        let messenger = rig.connection.messenger
        let chunker = try MessageChunker(chunkLength: 40, maximumMessageLength: 100)
        let stray = try chunker.chunks(of: Data("stray".utf8), kind: .message, id: 5)[0]
        let ours = try chunker.chunks(of: Data("ours".utf8), kind: .message, id: 6)[0]
        var inbox = messenger.inbox.makeAsyncIterator()
        // A notification on our characteristic, from a peripheral we are not connected to, then ours.
        messenger.didReceive(stray, from: PeripheralID(UUID()))
        messenger.didReceive(ours, from: ConnectionRig.deviceID)
        #expect(await inbox.next() == .message(Messenger.Message(id: 6, isRequest: false, payload: Data("ours".utf8))))
    }
}
