package io.sprout.sample;

/**
 * The body of {@code /benchmark/json}: the seed's small nested document, as records serialised by Jackson.
 *
 * @param status always {@code "success"}
 * @param timestamp epoch milliseconds when the response was built
 * @param data the nested part
 */
public record JsonMessage(String status, long timestamp, Data data) {

    /**
     * @param message a fixed greeting
     * @param server the web server that answered, e.g. {@code tomcat} or {@code sprout}
     * @param version the application version
     */
    public record Data(String message, String server, String version) {
    }

}
