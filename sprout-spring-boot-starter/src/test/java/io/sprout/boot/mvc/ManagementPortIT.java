package io.sprout.boot.mvc;

import io.sprout.boot.mvcapp.MvcTestApplication;
import io.sprout.boot.web.SproutWebServer;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalManagementPort;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.boot.web.server.context.WebServerApplicationContext;
import org.springframework.context.ApplicationContext;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;

import static org.assertj.core.api.Assertions.assertThat;

/** {@code management.server.port} runs Actuator on a second Sprout server in a child context. */
@SpringBootTest(classes = MvcTestApplication.class, webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
        properties = {"management.server.port=0", "management.endpoints.web.exposure.include=health,metrics"})
class ManagementPortIT {

    @LocalServerPort
    int port;

    @LocalManagementPort
    int managementPort;

    @Autowired
    ApplicationContext context;

    @Test
    void servesActuatorOnItsOwnSproutServer() throws Exception {
        assertThat(managementPort).isPositive().isNotEqualTo(port);
        HttpClient client = HttpClient.newHttpClient();
        HttpResponse<String> health = client.send(HttpRequest.newBuilder(
                URI.create("http://127.0.0.1:" + managementPort + "/actuator/health")).build(),
                HttpResponse.BodyHandlers.ofString());
        assertThat(health.statusCode()).isEqualTo(200);
        assertThat(health.body()).contains("\"status\":\"UP\"");
        HttpResponse<String> notOnMain = client.send(HttpRequest.newBuilder(
                URI.create("http://127.0.0.1:" + port + "/actuator/health")).build(),
                HttpResponse.BodyHandlers.ofString());
        assertThat(notOnMain.statusCode()).isEqualTo(404);
        assertThat(((WebServerApplicationContext) context).getWebServer()).isInstanceOf(SproutWebServer.class);
    }
}
