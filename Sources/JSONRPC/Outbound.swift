// The JSONRPC layer: the one way out for the messages a server sends; see ARCHITECTURE.md.

import JSON

/// What a message carries (a notification's or request's params, a response's result), as the message describes
/// it. How it is written (a value's tree, members written straight from typed values, a long list an element at a
/// time) is the channel's choice, made from what the body offers.
public protocol OutgoingBody {
    /// The body as a value; with a ``longList``, everything but that list's member.
    var json: JSONValue { get }
    /// Whether ``writeMembers(to:)`` writes the body (an object), so no value need be made for it.
    var writesMembers: Bool { get }
    /// Writes the object ``json`` is, member for member, in the same order: the same text, with no value between.
    func writeMembers(to object: JSONObjectWriter)
    /// The length of the longest list ``writeMembers(to:)`` writes (the members make one tree, so a body with a long
    /// list goes as its value instead, written piece by piece).
    var longestWrittenList: Int { get }
    /// A member, the object's last, whose list may be very long, with its elements made one at a time; nil: none.
    var longList: (member: String, elements: JSONElements)? { get }
}

extension OutgoingBody {
    public var writesMembers: Bool { false }
    public func writeMembers(to object: JSONObjectWriter) {}
    public var longestWrittenList: Int { 0 }
    public var longList: (member: String, elements: JSONElements)? { nil }

    /// The whole body as one value (a long list made whole): what a batch's answer holds.
    public var value: JSONValue {
        if let list = longList, case .object(var object) = json {
            object[list.member] = nil
            object[list.member] = .array(list.elements.values)
            return .object(object)
        }
        return json
    }

    /// Whether the channel writes the body member by member: one tree, made whole, so only with short lists.
    var goesAsMembers: Bool { writesMembers && longestWrittenList < JSONValue.piecewiseArrayLength }

    /// The list the channel makes an element at a time as the output takes it: a long one.
    var streamedList: (member: String, elements: JSONElements)? {
        guard let list = longList, list.elements.count >= JSONValue.piecewiseArrayLength else { return nil }
        return list
    }
}

extension JSONValue: OutgoingBody {
    public var json: JSONValue { self }
}

/// A message a server sends through its ``Outbound`` channel.
public enum OutgoingMessage {
    case notification(String, any OutgoingBody)
    /// A request to the client; its response comes back as an incoming message under the id ``Outbound/send(_:)``
    /// gives.
    case request(String, any OutgoingBody)
    /// The answer to a request the client sent: a result, or an error.
    case response(to: RequestID, Result<any OutgoingBody, ResponseError>)
}

/// The one way out for a server's messages: it sends typed messages, the channel frames and writes them.
public protocol Outbound: AnyObject {
    /// Sends `message`. - Returns: for a request, its id (unique on the channel); nil for the others.
    @discardableResult
    func send(_ message: OutgoingMessage) -> RequestID?
    /// Whether a long list sent earlier is still being written (the client reads it slowly): a sender of long lists
    /// waits for it, so that two are not held at once.
    var isWritingLongList: Bool { get }
}
