package io.sprout.boot.httpsapp;

import jakarta.servlet.http.HttpSession;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.http.MediaType;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.RestController;
import org.springframework.web.servlet.support.ServletUriComponentsBuilder;

import java.util.List;

/**
 * A petclinic-style Spring MVC application that knows nothing of Sprout or TLS: its {@code clinic.properties}
 * sets only {@code server.ssl.*}, as a Tomcat user's would, and it must serve HTTPS.
 */
@SpringBootApplication
public class ClinicApplication {

    public record Owner(int id, String name, List<String> pets) {
    }

    private static final List<Owner> OWNERS = List.of(new Owner(1, "George Franklin", List.of("Leo")),
            new Owner(2, "Betty Davis", List.of("Basil", "Rosy")));

    @RestController
    static class OwnerController {

        @GetMapping("/owners")
        List<Owner> owners() {
            return OWNERS;
        }

        @GetMapping("/owners/{id}")
        Owner owner(@PathVariable int id) {
            return OWNERS.stream().filter(owner -> owner.id() == id).findFirst().orElseThrow();
        }

        /** A page with an absolute link, built from the request as Spring builds redirects and HATEOAS links. */
        @GetMapping(value = "/", produces = MediaType.TEXT_HTML_VALUE)
        String welcome(HttpSession session) {
            session.setAttribute("visited", true);
            String owners = ServletUriComponentsBuilder.fromCurrentContextPath().path("/owners").toUriString();
            return "<!DOCTYPE html><html><body><h1>Welcome</h1><a href=\"" + owners + "\">Owners</a></body></html>";
        }
    }
}
