package io.sprout.boot.servlet;

/**
 * Something the application asked of Sprout that Sprout does not offer, as data: what it was, why Sprout does not
 * offer it and what to do instead. Thrown by the methods and settings listed in {@link Unsupported}; when it ends
 * start-up, the starter's failure analyzer turns it into Boot's "APPLICATION FAILED TO START" report.
 */
public final class UnsupportedFeatureException extends UnsupportedOperationException {

    private static final long serialVersionUID = 1L;

    private final String feature;
    private final String reason;
    private final String action;

    UnsupportedFeatureException(String feature, String reason, String action) {
        super("Sprout does not support " + feature + ": " + reason + " (see io.sprout.boot.servlet.Unsupported)");
        this.feature = feature;
        this.reason = reason;
        this.action = action;
    }

    /** What was asked for, e.g. {@code session tracking mode SSL} or {@code HttpServletRequest.login}. */
    public String feature() {
        return feature;
    }

    /** Why Sprout does not offer it. */
    public String reason() {
        return reason;
    }

    /** What the application can do instead. */
    public String action() {
        return action;
    }
}
